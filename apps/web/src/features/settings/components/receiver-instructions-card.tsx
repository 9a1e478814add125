import { ActionIcon, Card, Code, CopyButton, Group, List, Stack, Text, Title, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy, IconPlugConnected } from '@tabler/icons-react';
import { API_BASE } from '@/lib/api-client';

export const RECEIVER_PATH = '/external/receive-phoneteletalk';

function Copyable({ value, label }: { value: string; label: string }) {
  return (
    <Group gap={6} wrap="nowrap">
      <Code fz="sm" style={{ wordBreak: 'break-all' }}>
        {value}
      </Code>
      <CopyButton value={value} timeout={1500}>
        {({ copied, copy }) => (
          <Tooltip label={copied ? 'Copied' : 'Copy'} withArrow>
            <ActionIcon variant="subtle" color={copied ? 'teal' : 'gray'} onClick={copy} aria-label={label}>
              {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
            </ActionIcon>
          </Tooltip>
        )}
      </CopyButton>
    </Group>
  );
}

/** How to point an SMS forwarder or a Daraja C2B integration at the payment receiver. */
export function ReceiverInstructionsCard() {
  const url = `${window.location.origin}${API_BASE}${RECEIVER_PATH}`;
  return (
    <Card padding="lg" component="section" aria-label="Receiving Payments">
      <Group gap="sm" mb={4}>
        <IconPlugConnected size={20} />
        <Title order={4}>Receiving Payments</Title>
      </Group>
      <Text size="sm" c="dimmed" mb="md">
        Mobile-money confirmations posted here are matched to a device, recorded as payments, and answered with a token.
      </Text>
      <Stack gap="sm">
        <Stack gap={4}>
          <Text size="xs" c="dimmed" fw={600} tt="uppercase">
            Endpoint
          </Text>
          <Group gap="xs" wrap="nowrap" align="flex-start">
            {/* The URL wraps on a phone; the method keeps its width. */}
            <Code fz="sm" miw="max-content">
              POST
            </Code>
            <Copyable value={url} label="Copy endpoint URL" />
          </Group>
        </Stack>
        <Stack gap={4}>
          <Text size="xs" c="dimmed" fw={600} tt="uppercase">
            Header
          </Text>
          <Copyable value="X-API-Key: <your API key>" label="Copy header" />
        </Stack>
        <Text fw={600} size="sm" mt="xs">
          SMS forwarder (Android phone receiving M-Pesa, Airtel Money or MTN MoMo SMS)
        </Text>
        <List size="sm" spacing={4}>
          <List.Item>Install an SMS forwarding app on the phone that receives the till or paybill confirmations.</List.Item>
          <List.Item>Add a webhook rule: method POST, the endpoint above, and the X-API-Key header with your API key.</List.Item>
          <List.Item>
            Send the message text and sender as JSON or form fields, for example <Code>{'{"message": "...", "from": "MPESA"}'}</Code>.
          </List.Item>
          <List.Item>Forward only messages from the mobile-money sender (e.g. MPESA, AirtelMoney, M-Money) to keep other SMS out.</List.Item>
          <List.Item>
            Customers paying by MTN MoMo write the device's serial number in the message or reference sent with the money, so the
            payment finds its device; without it, the payer's phone number finds their customer.
          </List.Item>
          <List.Item>
            Always send the original sender: a confirmation that comes from a phone number was typed by a person, so it is held
            for you to check and match on the Messages page instead of unlocking a device.
          </List.Item>
        </List>
        <Text fw={600} size="sm" mt="xs">
          Safaricom Daraja C2B
        </Text>
        <List size="sm" spacing={4}>
          <List.Item>Register the endpoint above as the Confirmation URL of your shortcode.</List.Item>
          <List.Item>
            The confirmation body is accepted as Safaricom sends it; it must arrive with the X-API-Key header, so route it
            through your gateway or proxy that adds the header.
          </List.Item>
          <List.Item>Customers pay with the device serial number, their ID number or phone as the account number.</List.Item>
        </List>
        <Text size="xs" c="dimmed" mt="xs">
          Test it: <Code>{`curl -X POST ${url} -H "X-API-Key: <your API key>" -H "Content-Type: application/json" -d '{"message":"..."}'`}</Code>
        </Text>
      </Stack>
    </Card>
  );
}
