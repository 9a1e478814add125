import { Box, Button, Card, Flex, Group, NavLink, SegmentedControl, Skeleton, Stack, Text } from '@mantine/core';
import { IconBellOff, IconChecks } from '@tabler/icons-react';
import { Link } from 'react-router-dom';
import { ErrorAlert } from '@/components/ui/error-alert';
import { errorMessage } from '@/lib/api-client';
import { useMyNotificationPages, type UserNotification } from '../api/get-my-notifications';
import { NotificationKindIcon, NotificationText, notificationHref, UnreadDot, useMarkRead } from './my-notification';

const FILTERS = [
  { value: 'all', label: 'All' },
  { value: 'unread', label: 'Unread' },
];

/** One line of the list: like the bell's, a link to what it is about (or, about nothing left, a button) that reads it. */
function NotificationRow({ n, onOpen }: { n: UserNotification; onOpen: (n: UserNotification) => void }) {
  const href = notificationHref(n);
  const props = {
    label: <NotificationText n={n} />,
    leftSection: <NotificationKindIcon n={n} />,
    // Level with the first line of the message, which may wrap (a phone).
    rightSection:
      n.read_at === null ? (
        <Flex h={22} align="center">
          <UnreadDot n={n} />
        </Flex>
      ) : null,
    styles: { section: { alignSelf: 'flex-start' } },
    onClick: () => onOpen(n),
    'data-unread': n.read_at === null || undefined,
    px: 'md',
    py: 'sm',
  };
  return href === null ? <NavLink component="button" type="button" {...props} /> : <NavLink component={Link} to={href} {...props} />;
}

function Empty({ unread }: { unread: boolean }) {
  return (
    <Stack align="center" gap={6} py={48} px="md" ta="center">
      <IconBellOff size={28} stroke={1.5} color="var(--mantine-color-dimmed)" aria-hidden />
      <Text c="dimmed" size="sm">
        {unread ? 'No unread notifications' : 'Nothing for you yet'}
      </Text>
    </Stack>
  );
}

/**
 * The user's own notifications, newest first, 20 at a time (Load Older), all
 * or only the unread ones (the filter is the page's, kept in its URL).
 */
export function MyNotificationsList({ unread, onFilter }: { unread: boolean; onFilter: (unread: boolean) => void }) {
  const list = useMyNotificationPages(unread);
  const { markRead, open, markingAll } = useMarkRead();
  const items = list.data?.pages.flatMap((p) => p.items) ?? [];
  // Of every one, whatever the filter: the newest page knows it best.
  const unreadCount = list.data?.pages[0]?.unread ?? 0;

  return (
    <Card padding={0} component="section" aria-label="Your notifications">
      <Group justify="space-between" gap="sm" p="md" wrap="wrap" style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}>
        <SegmentedControl aria-label="Show notifications" data={FILTERS} value={unread ? 'unread' : 'all'} onChange={(v) => onFilter(v === 'unread')} />
        {unreadCount > 0 ? (
          <Button variant="light" size="xs" leftSection={<IconChecks size={16} />} onClick={() => markRead()} loading={markingAll}>
            Mark All as Read
          </Button>
        ) : null}
      </Group>
      {list.isPending ? (
        <Stack gap="sm" p="md" aria-label="Loading notifications">
          <Skeleton h={44} />
          <Skeleton h={44} />
          <Skeleton h={44} />
        </Stack>
      ) : list.isError && items.length === 0 ? (
        <Box p="md">
          <ErrorAlert
            message={errorMessage(list.error, 'Failed to load your notifications')}
            onRetry={() => void list.refetch()}
            retrying={list.isRefetching}
          />
        </Box>
      ) : items.length === 0 ? (
        <Empty unread={unread} />
      ) : (
        <Box component="ul" m={0} p={0} aria-label={unread ? 'Unread notifications' : 'Notifications'} style={{ listStyle: 'none' }}>
          {items.map((n, i) => (
            <li key={n.id} style={i > 0 ? { borderTop: '1px solid var(--mantine-color-default-border)' } : undefined}>
              <NotificationRow n={n} onOpen={open} />
            </li>
          ))}
        </Box>
      )}
      {list.isFetchNextPageError ? (
        <Box px="md" pb="md">
          <ErrorAlert
            message={errorMessage(list.error, 'Failed to load older notifications')}
            onRetry={() => void list.fetchNextPage()}
            retrying={list.isFetchingNextPage}
          />
        </Box>
      ) : null}
      {items.length > 0 && list.hasNextPage && !list.isFetchNextPageError ? (
        <Group justify="center" p="md" style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}>
          <Button variant="default" loading={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>
            Load Older
          </Button>
        </Group>
      ) : null}
    </Card>
  );
}
