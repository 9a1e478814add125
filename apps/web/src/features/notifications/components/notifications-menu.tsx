import { ActionIcon, Button, Group, Indicator, Loader, Menu, ScrollArea, Stack, Text, ThemeIcon, Tooltip } from '@mantine/core';
import { IconAlertTriangle, IconBell, IconChevronRight, IconCircleCheck, IconCircleX, IconInfoCircle } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/api-client';
import { TOAST_COLORS, type ToastType } from '@/lib/notify';
import { useMyNotifications, type UserNotification } from '../api/get-my-notifications';
import { useNotifications, type AppNotification } from '../api/get-notifications';
import { Byline, NotificationKindIcon, NotificationText, notificationHref, UnreadDot, useMarkRead } from './my-notification';

const ICONS = { error: IconCircleX, warning: IconAlertTriangle, success: IconCircleCheck, info: IconInfoCircle };

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

/** One of the user's own: unread ones in bold with a dot; it leads to its ticket or device. */
function MyNotificationItem({ n, onOpen }: { n: UserNotification; onOpen: (n: UserNotification) => void }) {
  const href = notificationHref(n);
  const body = <NotificationText n={n} lineClamp={3} />;
  const props = {
    onClick: () => onOpen(n),
    'data-unread': n.read_at === null || undefined,
    leftSection: <NotificationKindIcon n={n} />,
    rightSection: <UnreadDot n={n} />,
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
  const { markRead, open, markingAll } = useMarkRead();
  const unread = data?.unread ?? 0;

  return (
    <>
      <Group justify="space-between" wrap="nowrap" gap="xs" pr={6}>
        <Menu.Label>For you</Menu.Label>
        {unread > 0 ? (
          <Button variant="subtle" size="compact-xs" onClick={() => markRead()} loading={markingAll}>
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
            <MyNotificationItem key={n.id} n={n} onOpen={open} />
          ))}
        </ScrollArea.Autosize>
      )}
      {/* Older ones, the Unread filter and which kinds the user is told of: the Notifications page. */}
      <Menu.Item
        component={Link}
        to={paths.app.notifications.getHref()}
        c="var(--mantine-primary-color-filled)"
        rightSection={<IconChevronRight size={14} />}
        fz="sm"
        fw={500}
      >
        See All
      </Menu.Item>
    </>
  );
}

/** "For everyone": the notices to the whole organization (the super admin's, and warnings such as a webhook given up). */
function FromThePlatform() {
  const { data, isPending, isError, error } = useNotifications();
  const items = data?.data ?? [];
  return (
    <>
      <Menu.Label>For everyone</Menu.Label>
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
