import { ActionIcon, Box, Button, Group, Indicator, Loader, Menu, ScrollArea, Stack, Text, ThemeIcon, Tooltip, VisuallyHidden } from '@mantine/core';
import {
  IconAlertTriangle,
  IconArrowBackUp,
  IconBell,
  IconCalendarDue,
  IconCalendarX,
  IconCircleCheck,
  IconCircleX,
  IconCoins,
  IconInfoCircle,
  IconUserCheck,
} from '@tabler/icons-react';
import type { UserNotificationKind } from '@kidogo/contracts';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { formatDate, parseDate } from '@/components/ui/date-text';
import { paths } from '@/config/paths';
import { ticketsHref } from '@/features/tickets/routes/screen-params';
import { errorMessage } from '@/lib/api-client';
import { toast, TOAST_COLORS, type ToastType } from '@/lib/notify';
import { useMyNotifications, type UserNotification } from '../api/get-my-notifications';
import { useNotifications, type AppNotification } from '../api/get-notifications';
import { useMarkNotificationsRead } from '../api/mark-notifications-read';

const ICONS = { error: IconCircleX, warning: IconAlertTriangle, success: IconCircleCheck, info: IconInfoCircle };
const KINDS: Record<UserNotificationKind, { icon: typeof IconBell; color: string }> = {
  ticket_assigned: { icon: IconUserCheck, color: 'blue' },
  ticket_resolved: { icon: IconCircleCheck, color: 'green' },
  ticket_reopened: { icon: IconArrowBackUp, color: 'orange' },
  promise_due: { icon: IconCalendarDue, color: 'blue' },
  promise_broken: { icon: IconCalendarX, color: 'red' },
  payments_held: { icon: IconCoins, color: 'yellow' },
};

/** Where one leads: held payments to Messages (Held Payments), else its ticket, else its device (a promise's), else nowhere. */
export function notificationHref(n: Pick<UserNotification, 'kind' | 'ticket_id' | 'serial_number'>): string | null {
  if (n.kind === 'payments_held') return paths.app.messages.getHref();
  if (n.ticket_id !== null) return ticketsHref({ ticket: n.ticket_id });
  if (n.serial_number) return paths.app.deviceActivity.getHref(n.serial_number);
  return null;
}

export const MARK_READ_FAILED = 'Failed to mark notifications read';

function levelOf(n: AppNotification): ToastType {
  const levels: readonly ToastType[] = ['error', 'warning', 'success', 'info'];
  return levels.find((l) => l === n.level) ?? 'info';
}

function Pending() {
  return (
    <Stack align="center" py="md">
      <Loader size="xs" />
    </Stack>
  );
}

function Note({ children, color = 'dimmed' }: { children: string; color?: string }) {
  return (
    <Text size="sm" c={color} px="sm" py="xs">
      {children}
    </Text>
  );
}

/** When, and by whom: under each line. */
function Byline({ at, by }: { at: string; by: string | null }) {
  const date = parseDate(at);
  return (
    <Text size="xs" c="dimmed">
      {date ? <time dateTime={date.toISOString()}>{formatDate(date, true)}</time> : '—'}
      {by ? ` · ${by}` : ''}
    </Text>
  );
}

/** One of the user's own: unread ones in bold with a dot; it leads to its ticket or device. */
function MyNotificationItem({ n, onOpen }: { n: UserNotification; onOpen: (n: UserNotification) => void }) {
  const unread = n.read_at === null;
  const kind = KINDS[n.kind] ?? { icon: IconBell, color: 'blue' };
  const Icon = kind.icon;
  const href = notificationHref(n);
  const body = (
    <>
      <Text size="sm" fw={unread ? 600 : 400} lineClamp={3}>
        {unread ? <VisuallyHidden>Unread: </VisuallyHidden> : null}
        {n.message}
      </Text>
      <Byline at={n.created_at} by={n.actor} />
    </>
  );
  const props = {
    onClick: () => onOpen(n),
    'data-unread': unread || undefined,
    leftSection: (
      <ThemeIcon variant="light" color={unread ? kind.color : 'gray'} size="sm" radius="xl">
        <Icon size={14} />
      </ThemeIcon>
    ),
    rightSection: unread ? <Box w={8} h={8} bg="blue.6" style={{ borderRadius: '50%', flex: 'none' }} aria-hidden /> : null,
  };
  return href === null ? (
    <Menu.Item {...props}>{body}</Menu.Item>
  ) : (
    <Menu.Item component={Link} to={href} {...props}>
      {body}
    </Menu.Item>
  );
}

/** "For you": what happened to the user's own work, newest first. */
function ForYou() {
  const { data, isPending, isError, error } = useMyNotifications();
  const mark = useMarkNotificationsRead();
  const unread = data?.unread ?? 0;
  const markRead = (ids?: number[]) =>
    mark.mutate(ids ? { ids } : {}, { onError: (e) => void toast.error(errorMessage(e, MARK_READ_FAILED)) });

  return (
    <>
      <Group justify="space-between" wrap="nowrap" gap="xs" pr={6}>
        <Menu.Label>For you</Menu.Label>
        {unread > 0 ? (
          <Button variant="subtle" size="compact-xs" onClick={() => markRead()} loading={mark.isPending && !mark.variables?.ids}>
            Mark All as Read
          </Button>
        ) : null}
      </Group>
      {isPending ? (
        <Pending />
      ) : isError ? (
        <Note color="red">{errorMessage(error, 'Failed to load your notifications')}</Note>
      ) : data.items.length === 0 ? (
        <Note>Nothing for you yet</Note>
      ) : (
        <ScrollArea.Autosize mah={320} type="auto">
          {data.items.map((n) => (
            <MyNotificationItem key={n.id} n={n} onOpen={(clicked) => (clicked.read_at === null ? markRead([clicked.id]) : undefined)} />
          ))}
        </ScrollArea.Autosize>
      )}
    </>
  );
}

/** "From the platform": the notices to the whole organization. */
function FromThePlatform() {
  const { data, isPending, isError, error } = useNotifications();
  const items = data?.data ?? [];
  return (
    <>
      <Menu.Label>From the platform</Menu.Label>
      {isPending ? (
        <Pending />
      ) : isError ? (
        <Note color="red">{errorMessage(error, 'Failed to load notifications')}</Note>
      ) : items.length === 0 ? (
        <Note>No notifications</Note>
      ) : (
        <ScrollArea.Autosize mah={240} type="auto">
          {items.map((n) => {
            const level = levelOf(n);
            const Icon = ICONS[level];
            return (
              <Menu.Item
                key={n.id}
                leftSection={
                  <ThemeIcon variant="light" color={TOAST_COLORS[level]} size="sm" radius="xl">
                    <Icon size={14} />
                  </ThemeIcon>
                }
              >
                <Text size="sm" lineClamp={3}>
                  {n.message}
                </Text>
                <Byline at={n.created_at} by={n.created_by} />
              </Menu.Item>
            );
          })}
        </ScrollArea.Autosize>
      )}
    </>
  );
}

/** The header's bell: the user's own notifications, counted while unread, then the organization's from the platform. */
export function NotificationsMenu() {
  const { data } = useMyNotifications();
  const unread = data?.unread ?? 0;
  // The tooltip would show through the open menu's corner.
  const [opened, setOpened] = useState(false);

  return (
    <Menu position="bottom-end" width={360} shadow="md" withinPortal opened={opened} onChange={setOpened}>
      <Menu.Target>
        <Tooltip label="Notifications" withArrow disabled={opened}>
          <ActionIcon variant="subtle" color="gray" size="lg" aria-label="Notifications">
            <Indicator disabled={unread === 0} label={unread > 9 ? '9+' : unread} size={16} offset={2} data-testid="notifications-unread">
              <IconBell size={20} stroke={1.6} />
            </Indicator>
          </ActionIcon>
        </Tooltip>
      </Menu.Target>
      <Menu.Dropdown maw="calc(100vw - 16px)">
        <ForYou />
        <Menu.Divider />
        <FromThePlatform />
      </Menu.Dropdown>
    </Menu>
  );
}
