import { Button, Card, Group, Text, Title } from '@mantine/core';
import { IconBell, IconChevronRight } from '@tabler/icons-react';
import { Link } from 'react-router-dom';
import { paths } from '@/config/paths';

/** On Settings, among the user's own: the way to choose what the bell tells them (the Notifications page is not in the sidebar). */
export function NotificationsLinkCard() {
  return (
    <Card padding="lg" component="section" aria-label="Notifications">
      <Group gap="sm" mb={4}>
        <IconBell size={20} />
        <Title order={4}>Notifications</Title>
      </Group>
      <Text size="sm" c="dimmed" mb="md">
        Every notification you have had, and which kinds reach your bell.
      </Text>
      <Group justify="flex-end">
        <Button component={Link} to={paths.app.notifications.getHref()} variant="light" rightSection={<IconChevronRight size={16} />}>
          Open Notifications
        </Button>
      </Group>
    </Card>
  );
}
