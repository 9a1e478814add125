import { Card, Group, Loader, Skeleton, Stack, Switch, Text, Title } from '@mantine/core';
import { IconBellCog } from '@tabler/icons-react';
import { USER_NOTIFICATION_KIND_LABELS, USER_NOTIFICATION_KINDS, type SessionUser, type UserNotificationKind } from '@kidogo/contracts';
import { useState } from 'react';
import { ErrorAlert } from '@/components/ui/error-alert';
import { errorMessage } from '@/lib/api-client';
import { toast } from '@/lib/notify';
import { useSession } from '@/lib/session';
import { useNotificationSettings } from '../api/get-notification-settings';
import { useUpdateNotificationSettings } from '../api/update-notification-settings';

export const SETTINGS_SAVED = 'Notification settings saved';
export const SETTINGS_SAVE_FAILED = 'Failed to save notification settings';

/** Only owners and admins are told of payments held for matching: nobody else is offered the switch. */
const kindsFor = (user: Pick<SessionUser, 'role'> | null): UserNotificationKind[] =>
  USER_NOTIFICATION_KINDS.filter((k) => k !== 'payments_held' || user?.role === 'owner' || user?.role === 'admin');

/** "What I Am Told Of": a switch per kind of notification, on unless the user turned it off; each saves at once. */
export function NotificationSettingsCard() {
  const { user } = useSession();
  const settings = useNotificationSettings();
  const update = useUpdateNotificationSettings();
  const muted = settings.data?.muted ?? [];
  // The switch whose save is on its way.
  const [savingKind, setSavingKind] = useState<UserNotificationKind | null>(null);

  const toggle = (kind: UserNotificationKind, on: boolean) => {
    // Each save sends the whole list: one at a time, so none is sent from a list another is still changing.
    if (update.isPending) return;
    setSavingKind(kind);
    update.mutate(
      { muted: USER_NOTIFICATION_KINDS.filter((k) => (k === kind ? !on : muted.includes(k))) },
      {
        onSuccess: () => void toast.success(SETTINGS_SAVED),
        onError: (e) => void toast.error(errorMessage(e, SETTINGS_SAVE_FAILED)),
        onSettled: () => setSavingKind(null),
      },
    );
  };

  return (
    <Card padding="lg" component="section" aria-label="What I Am Told Of">
      <Group gap="sm" mb={4}>
        <IconBellCog size={20} />
        <Title order={4}>What I Am Told Of</Title>
      </Group>
      <Text size="sm" c="dimmed" mb="md">
        Which of your notifications reach the bell.
      </Text>
      {settings.isError ? (
        <ErrorAlert message={errorMessage(settings.error, 'Failed to load your notification settings')} onRetry={() => void settings.refetch()} retrying={settings.isFetching} />
      ) : settings.isPending ? (
        <Stack gap="sm">
          {kindsFor(user).map((k) => (
            <Skeleton key={k} h={24} />
          ))}
        </Stack>
      ) : (
        <Stack gap="sm">
          {kindsFor(user).map((kind) => (
            <Switch
              key={kind}
              label={USER_NOTIFICATION_KIND_LABELS[kind]}
              checked={!muted.includes(kind)}
              onChange={(e) => toggle(kind, e.currentTarget.checked)}
              thumbIcon={savingKind === kind ? <Loader size={10} color="gray" /> : undefined}
              aria-busy={savingKind === kind || undefined}
            />
          ))}
        </Stack>
      )}
      <Text size="xs" c="dimmed" mt="md">
        Turning a kind off stops new notifications of it; those you already have stay.
      </Text>
    </Card>
  );
}
