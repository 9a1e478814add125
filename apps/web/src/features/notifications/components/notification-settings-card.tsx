import { Card, Group, Loader, Skeleton, Stack, Switch, Table, Text, Title } from '@mantine/core';
import { IconBellCog } from '@tabler/icons-react';
import { MANAGER_NOTIFICATION_KINDS, USER_NOTIFICATION_KIND_LABELS, USER_NOTIFICATION_KINDS, type SessionUser, type UserNotificationKind } from '@kidogo/contracts';
import { useState } from 'react';
import { ErrorAlert } from '@/components/ui/error-alert';
import { errorMessage } from '@/lib/api-client';
import { toast } from '@/lib/notify';
import { useSession } from '@/lib/session';
import { useNotificationSettings } from '../api/get-notification-settings';
import { useUpdateNotificationSettings } from '../api/update-notification-settings';

export const SETTINGS_SAVED = 'Notification settings saved';
export const SETTINGS_SAVE_FAILED = 'Failed to save notification settings';

/** Only owners and admins are told of the organization's waiting work (payments held, problems customers report): nobody else is offered those switches. */
const kindsFor = (user: Pick<SessionUser, 'role'> | null): UserNotificationKind[] =>
  USER_NOTIFICATION_KINDS.filter((k) => !MANAGER_NOTIFICATION_KINDS.includes(k) || user?.role === 'owner' || user?.role === 'admin');

/** Why the Email switches cannot be turned on, or null when they can. */
export function emailBlocked(settings: { email: string | null; email_available: boolean } | undefined): string | null {
  if (!settings) return null;
  if (!settings.email_available) return 'Email is not set up on this installation: notifications reach the bell only.';
  if (!settings.email) return 'Your account has no email address: ask an owner or admin to add one (Settings → Team → Edit).';
  return null;
}

/**
 * "What I Am Told Of": per kind of notification, a Bell switch (on unless the user turned it off) and an Email switch
 * (off until chosen: the new ones, in one email a minute); each saves at once.
 */
export function NotificationSettingsCard() {
  const { user } = useSession();
  const settings = useNotificationSettings();
  const update = useUpdateNotificationSettings();
  const muted = settings.data?.muted ?? [];
  const emailed = settings.data?.emailed ?? [];
  const blocked = emailBlocked(settings.data);
  // The switch whose save is on its way.
  const [saving, setSaving] = useState<{ kind: UserNotificationKind; channel: 'bell' | 'email' } | null>(null);

  const save = (kind: UserNotificationKind, channel: 'bell' | 'email', input: { muted: UserNotificationKind[]; emailed?: UserNotificationKind[] }) => {
    // Each save sends whole lists: one at a time, so none is sent from a list another is still changing.
    if (update.isPending) return;
    setSaving({ kind, channel });
    update.mutate(input, {
      onSuccess: () => void toast.success(SETTINGS_SAVED),
      onError: (e) => void toast.error(errorMessage(e, SETTINGS_SAVE_FAILED)),
      onSettled: () => setSaving(null),
    });
  };
  const toggle = (kind: UserNotificationKind, on: boolean) =>
    save(kind, 'bell', { muted: USER_NOTIFICATION_KINDS.filter((k) => (k === kind ? !on : muted.includes(k))) });
  const manager = user?.role === 'owner' || user?.role === 'admin' || user?.role === 'super_admin';
  const summary = settings.data?.daily_summary ?? false;
  const [savingSummary, setSavingSummary] = useState(false);
  const toggleSummary = (on: boolean) => {
    if (update.isPending) return;
    setSavingSummary(true);
    update.mutate(
      { muted, daily_summary: on },
      {
        onSuccess: () => void toast.success(SETTINGS_SAVED),
        onError: (e) => void toast.error(errorMessage(e, SETTINGS_SAVE_FAILED)),
        onSettled: () => setSavingSummary(false),
      },
    );
  };
  const toggleEmail = (kind: UserNotificationKind, on: boolean) =>
    save(kind, 'email', { muted, emailed: USER_NOTIFICATION_KINDS.filter((k) => (k === kind ? on : emailed.includes(k))) });
  const busy = (kind: UserNotificationKind, channel: 'bell' | 'email') => saving?.kind === kind && saving.channel === channel;

  return (
    <Card padding="lg" component="section" aria-label="What I Am Told Of">
      <Group gap="sm" mb={4}>
        <IconBellCog size={20} />
        <Title order={4}>What I Am Told Of</Title>
      </Group>
      <Text size="sm" c="dimmed" mb="md">
        Which of your notifications reach the bell, and which are also emailed to you.
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
        <Table verticalSpacing={6} horizontalSpacing="xs" withRowBorders={false}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>
                <Text span size="xs" c="dimmed" fw={600} tt="uppercase">
                  When
                </Text>
              </Table.Th>
              <Table.Th w={64} ta="center">
                <Text span size="xs" c="dimmed" fw={600} tt="uppercase">
                  Bell
                </Text>
              </Table.Th>
              <Table.Th w={64} ta="center">
                <Text span size="xs" c="dimmed" fw={600} tt="uppercase">
                  Email
                </Text>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {kindsFor(user).map((kind) => (
              <Table.Tr key={kind}>
                <Table.Td>
                  <Text size="sm">{USER_NOTIFICATION_KIND_LABELS[kind]}</Text>
                </Table.Td>
                <Table.Td>
                  <Group justify="center">
                    <Switch
                      aria-label={USER_NOTIFICATION_KIND_LABELS[kind]}
                      checked={!muted.includes(kind)}
                      onChange={(e) => toggle(kind, e.currentTarget.checked)}
                      thumbIcon={busy(kind, 'bell') ? <Loader size={10} color="gray" /> : undefined}
                      aria-busy={busy(kind, 'bell') || undefined}
                    />
                  </Group>
                </Table.Td>
                <Table.Td>
                  <Group justify="center">
                    <Switch
                      aria-label={`Email: ${USER_NOTIFICATION_KIND_LABELS[kind]}`}
                      // A kind off in the bell is not written at all, so it cannot be emailed either.
                      checked={emailed.includes(kind) && !muted.includes(kind)}
                      disabled={(blocked !== null && !emailed.includes(kind)) || muted.includes(kind)}
                      onChange={(e) => toggleEmail(kind, e.currentTarget.checked)}
                      thumbIcon={busy(kind, 'email') ? <Loader size={10} color="gray" /> : undefined}
                      aria-busy={busy(kind, 'email') || undefined}
                    />
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {manager && settings.data ? (
        <Switch
          mt="md"
          label="A summary of yesterday each morning, by email"
          description="Payments applied and their sum, codes issued and new customers the day before; payments held, tickets not resolved and promises due today"
          checked={summary}
          disabled={blocked !== null && !summary}
          onChange={(e) => toggleSummary(e.currentTarget.checked)}
          thumbIcon={savingSummary ? <Loader size={10} color="gray" /> : undefined}
          aria-busy={savingSummary || undefined}
        />
      ) : null}
      <Text size="xs" c="dimmed" mt="md">
        Turning a kind off stops new notifications of it; those you already have stay.
      </Text>
      <Text size="xs" c={blocked ? 'orange' : 'dimmed'} mt={4}>
        {blocked ??
          `Emailed kinds go to ${settings.data?.email ?? 'your email address'}: the new ones you have not read, in one email a minute at most.`}
      </Text>
    </Card>
  );
}
