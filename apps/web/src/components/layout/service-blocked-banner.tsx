import { Alert, Stack, Text } from '@mantine/core';
import { IconBan, IconPlayerPause } from '@tabler/icons-react';
import { useId } from 'react';
import { formatDate } from '@/components/ui/date-text';
import { SERVICE_BLOCKED_DEFAULT_TEXT, useServiceBlocked } from '@/lib/service-blocked';

/**
 * While the organization is disabled or suspended every call is refused and
 * the screens look empty; this says why, above every page, for as long as it
 * lasts (the toast of the same event is gone after 5 s).
 */
export function ServiceBlockedBanner() {
  const blocked = useServiceBlocked();
  const titleId = useId();
  if (!blocked) return null;
  const disabled = blocked.error === 'SERVICE_DISABLED';
  const at = disabled ? blocked.disabled_at : blocked.suspended_at;
  const title = blocked.message || SERVICE_BLOCKED_DEFAULT_TEXT;
  return (
    <Alert
      color={disabled ? 'red' : 'yellow'}
      variant="light"
      radius="md"
      mb="lg"
      role="alert"
      aria-labelledby={titleId}
      icon={disabled ? <IconBan size={20} /> : <IconPlayerPause size={20} />}
      title={<span id={titleId}>{title}</span>}
    >
      <Stack gap={4}>
        {blocked.reason ? (
          <Text size="sm">
            <Text span size="sm" fw={600}>
              Reason:{' '}
            </Text>
            <Text span size="sm">
              {blocked.reason}
            </Text>
          </Text>
        ) : null}
        {at ? (
          <Text size="sm" c="dimmed">
            {`${disabled ? 'Disabled' : 'Suspended'} since ${formatDate(at, true)}`}
          </Text>
        ) : null}
        {blocked.support_message ? <Text size="sm">{blocked.support_message}</Text> : null}
      </Stack>
    </Alert>
  );
}
