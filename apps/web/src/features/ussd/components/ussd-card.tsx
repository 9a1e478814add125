import { Badge, Button, Code, Divider, Group, List, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconDialpad, IconRotate } from '@tabler/icons-react';
import type { UssdSettings } from '@kidogo/contracts';
import { ConfirmModal } from '@/components/ui/confirm-modal';
import { formatDate } from '@/components/ui/date-text';
import { ErrorAlert } from '@/components/ui/error-alert';
import { SecretField } from '@/components/ui/secret-field';
import { SettingsFormCard } from '@/features/settings/components/settings-form-card';
import { errorMessage } from '@/lib/api-client';
import { toast } from '@/lib/notify';
import { useUssdSettings } from '../api/get-ussd-settings';
import { useRotateUssdAddress } from '../api/rotate-ussd-address';
import { useUpdateUssdSettings } from '../api/update-ussd-settings';
import { UssdSessions } from './ussd-sessions';
import { UssdTryMenu } from './ussd-try-menu';

export const TURN_ON_FAILED = 'Failed to turn the USSD menu on';
export const TURN_OFF_FAILED = 'Failed to turn the USSD menu off';
export const ROTATE_FAILED = 'Failed to give the USSD menu a new address';

const count = (n: number, one: string, many: string) => `${n.toLocaleString()} ${n === 1 ? one : many}`;

/** "12 sessions by 9 customers in the last 7 days, the last on 25 Nov 2026, 10:00", or that no one dialled. */
export function usageText(s: UssdSettings): string {
  if (s.sessions_7d === 0) return 'No one has dialled in the last 7 days';
  const usage = `${count(s.sessions_7d, 'session', 'sessions')} by ${count(s.customers_7d, 'customer', 'customers')} in the last 7 days`;
  return s.last_session_at ? `${usage}, the last ${formatDate(s.last_session_at, true)}` : usage;
}

/**
 * The address as the gateway must be given it. Without PUBLIC_URL the API knows only the path: it is put after the
 * address this browser reached the server at (the app and the API are served together).
 */
export const fullAddress = (url: string) => (url.startsWith('/') ? `${window.location.origin}${url}` : url);

/** "Turned on by amina on 20 Nov 2026". */
const turnedOnText = (s: UssdSettings) => `Turned on${s.enabled_by ? ` by ${s.enabled_by}` : ''}${s.enabled_at ? ` on ${formatDate(s.enabled_at)}` : ''}`;

function UssdMenu({ settings }: { settings: UssdSettings }) {
  const update = useUpdateUssdSettings();
  const rotate = useRotateUssdAddress();
  const [confirming, confirm] = useDisclosure(false);
  const on = settings.enabled;

  const turn = (enabled: boolean) => {
    if (update.isPending) return;
    rotate.reset();
    update.mutate(
      { enabled },
      { onSuccess: (reply) => toast.success(reply.message ?? (enabled ? 'The USSD menu is on' : 'The USSD menu is off')) },
    );
  };

  const newAddress = () =>
    rotate.mutate(undefined, {
      onSuccess: (reply) => {
        confirm.close();
        toast.success(reply.message ?? 'The USSD menu has a new address: give it to your USSD gateway');
      },
    });

  return (
    <Stack gap="md">
      <Group justify="space-between" gap="sm">
        <Group gap="xs">
          <Badge color={on ? 'green' : 'gray'} variant="light" radius="sm" miw="max-content" data-testid="ussd-status">
            {on ? 'On' : 'Off'}
          </Badge>
          <Text size="sm" c="dimmed">
            {on ? turnedOnText(settings) : 'Customers who dial are told it is not available.'}
          </Text>
        </Group>
        <Button variant={on ? 'default' : 'filled'} onClick={() => turn(!on)} loading={update.isPending}>
          {on ? 'Turn Off' : 'Turn On'}
        </Button>
      </Group>
      {update.isError ? (
        <ErrorAlert title={on ? TURN_OFF_FAILED : TURN_ON_FAILED} message={errorMessage(update.error, on ? TURN_OFF_FAILED : TURN_ON_FAILED)} />
      ) : null}
      {on && settings.callback_url ? (
        <Stack gap="xs">
          <SecretField label="Callback URL" value={fullAddress(settings.callback_url)} copyLabel="Copy callback URL" />
          <Text size="xs" c="dimmed">
            Keep it secret: whoever has it can use the menu as any of your customers.
            {settings.callback_url.startsWith('/')
              ? " This server's public address (PUBLIC_URL) is not set, so it begins with the address you reached Kidogo at: the gateway must be able to reach it from the internet."
              : ''}
          </Text>
          {settings.service_code ? (
            <Text size="sm">
              Customers dial <Code data-testid="ussd-service-code">{settings.service_code}</Code>
            </Text>
          ) : null}
          <Text size="sm" data-testid="ussd-usage">
            {usageText(settings)}
          </Text>
          <Group>
            <Button variant="light" color="red" leftSection={<IconRotate size={16} />}
              onClick={() => {
                // A refusal from an earlier try is not this one's.
                rotate.reset();
                confirm.open();
              }}
            >
              New Address
            </Button>
          </Group>
        </Stack>
      ) : null}
      <Stack gap={4}>
        <Text size="sm" fw={600}>
          Connect it to Africa&apos;s Talking
        </Text>
        <List size="sm" spacing={4} type="ordered">
          <List.Item>In Africa&apos;s Talking, create a USSD channel: the code your customers will dial.</List.Item>
          <List.Item>{on ? 'Paste the callback URL above' : 'Turn the menu on, then paste its callback URL'} as the channel&apos;s callback URL.</List.Item>
          <List.Item>Dial the code from a customer&apos;s phone, or try the menu below first.</List.Item>
        </List>
        <Text size="xs" c="dimmed">
          The menu speaks Africa&apos;s Talking&apos;s callback (sessionId, serviceCode, phoneNumber, text) and answers CON or END: any gateway that
          does the same works too.
        </Text>
      </Stack>
      <Divider />
      <UssdTryMenu />
      <Divider />
      <UssdSessions />
      <ConfirmModal
        opened={confirming}
        onClose={confirm.close}
        onConfirm={newAddress}
        title="Give the menu a new address?"
        message={
          <Text size="sm">
            A new callback URL replaces the current one and <b>the current one stops working at once</b>: customers who dial get an error until
            your USSD gateway is given the new one. Do it when the address may have been seen by someone who should not have it.
          </Text>
        }
        confirmLabel="New Address"
        loading={rotate.isPending}
        error={rotate.isError ? errorMessage(rotate.error, ROTATE_FAILED) : null}
        errorTitle={ROTATE_FAILED}
      />
    </Stack>
  );
}

/**
 * The customers' USSD menu (owners and admins): from any phone, without data, a customer dials the organization's
 * code to read their balance, get their last code again, pay, or report a problem. The gateway posts each step to
 * the organization's own secret address, shown here while the menu is on.
 */
export function UssdCard() {
  return (
    <SettingsFormCard
      title="USSD Menu"
      icon={<IconDialpad size={20} />}
      description={
        <>
          Customers dial your USSD code from any phone, without data, to read their balance, get their last code again (also by SMS), pay from
          their phone&apos;s mobile money, or report a problem.
        </>
      }
      query={useUssdSettings()}
      loadFailed="Failed to load the USSD menu"
    >
      {(data) => <UssdMenu settings={data} />}
    </SettingsFormCard>
  );
}
