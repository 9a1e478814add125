import { ActionIcon, Indicator, Loader, Menu, ScrollArea, Stack, Text, ThemeIcon, Tooltip } from '@mantine/core';
import { IconAlertTriangle, IconBell, IconCircleCheck, IconCircleX, IconInfoCircle } from '@tabler/icons-react';
import { formatDate } from '@/components/ui/date-text';
import { errorMessage } from '@/lib/api-client';
import { TOAST_COLORS, type ToastType } from '@/lib/notify';
import { useNotifications, type AppNotification } from '../api/get-notifications';

const ICONS = { error: IconCircleX, warning: IconAlertTriangle, success: IconCircleCheck, info: IconInfoCircle };

function levelOf(n: AppNotification): ToastType {
  const levels: readonly ToastType[] = ['error', 'warning', 'success', 'info'];
  return levels.find((l) => l === n.level) ?? 'info';
}

/** The header's bell: the organization's latest notifications. */
export function NotificationsMenu() {
  const { data, isPending, isError, error } = useNotifications();
  const items = data?.data ?? [];

  return (
    <Menu position="bottom-end" width={340} shadow="md" withinPortal>
      <Menu.Target>
        <Tooltip label="Notifications" withArrow>
          <ActionIcon variant="subtle" color="gray" size="lg" aria-label="Notifications">
            <Indicator disabled={items.length === 0} label={items.length > 9 ? '9+' : items.length} size={16} offset={2}>
              <IconBell size={20} stroke={1.6} />
            </Indicator>
          </ActionIcon>
        </Tooltip>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>Notifications</Menu.Label>
        {isPending ? (
          <Stack align="center" py="md">
            <Loader size="xs" />
          </Stack>
        ) : isError ? (
          <Text size="sm" c="red" px="sm" py="xs">
            {errorMessage(error, 'Failed to load notifications')}
          </Text>
        ) : items.length === 0 ? (
          <Text size="sm" c="dimmed" px="sm" py="xs">
            No notifications
          </Text>
        ) : (
          <ScrollArea.Autosize mah={360} type="auto">
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
                  <Text size="xs" c="dimmed">
                    {formatDate(n.created_at, true)}
                    {n.created_by ? ` · ${n.created_by}` : ''}
                  </Text>
                </Menu.Item>
              );
            })}
          </ScrollArea.Autosize>
        )}
      </Menu.Dropdown>
    </Menu>
  );
}
