import { Alert, Button, Code, Group, Modal, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import type { WebhookWithSecret } from '@kidogo/contracts';
import { SecretField } from '@/components/ui/secret-field';

const VERIFY = `// Node.js: the raw body as received, the Kidogo-Signature header, the secret
const [t, v1] = header.split(',').map((p) => p.split('=')[1]);
const ok = Math.abs(Date.now() / 1000 - Number(t)) < 300 &&
  crypto.createHmac('sha256', secret).update(\`\${t}.\${rawBody}\`).digest('hex') === v1;`;

/** A new or rotated signing secret: shown this once, with how a receiver checks it. */
export function WebhookSecretModal({ endpoint, rotated, onClose }: { endpoint: WebhookWithSecret | null; rotated: boolean; onClose: () => void }) {
  return (
    <Modal opened={endpoint !== null} onClose={onClose} title={rotated ? 'New Signing Secret' : 'Endpoint Added'} size="lg">
      {endpoint ? (
        <Stack gap="md">
          <Text size="sm">
            {rotated ? 'Every delivery from now on, retries included, is signed with this secret.' : `Kidogo will send ${endpoint.events.join(', ')} to ${endpoint.url}.`}{' '}
            Give the receiver this signing secret so it can check that each request came from Kidogo.
          </Text>
          <Alert color="yellow" icon={<IconAlertTriangle size={18} />} title="Copy it now">
            It is shown only this once. If it is lost, rotate the secret and update the receiver.
          </Alert>
          <SecretField label="Signing secret" value={endpoint.secret} copyLabel="Copy secret" />
          <div>
            <Text size="sm" fw={500} mb={4}>
              Checking a request
            </Text>
            <Text size="xs" c="dimmed" mb={6}>
              Kidogo-Signature is t=&#123;unix time&#125;,v1=&#123;HMAC-SHA256 of &quot;t.body&quot;&#125;. Refuse old times, and
              deduplicate on Kidogo-Event-Id: a retry carries the same one.
            </Text>
            <Code block>{VERIFY}</Code>
          </div>
          <Group justify="flex-end">
            <Button onClick={onClose}>Done</Button>
          </Group>
        </Stack>
      ) : null}
    </Modal>
  );
}
