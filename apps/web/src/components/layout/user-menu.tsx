import { Avatar, Group, Menu, Stack, Text, UnstyledButton } from '@mantine/core';
import { IconChevronDown, IconLogout, IconSettings } from '@tabler/icons-react';
import { Link } from 'react-router-dom';
import { paths } from '@/config/paths';
import { roleLabel } from '@/components/ui/role-badge';
import { useSession } from '@/lib/session';

/** Username, else organization id, else 'User'; role label, else 'Administrator'. */
export function displayIdentity(user: { username?: string | null; role?: string | null } | null, organizationId: string | null) {
  const name = user?.username?.trim() || organizationId || 'User';
  const role = user?.role ? roleLabel(user.role) : 'Administrator';
  return { name, role };
}

export function UserMenu() {
  const { user, organizationId, logout } = useSession();
  const { name, role } = displayIdentity(user, organizationId);
  return (
    <Menu position="bottom-end" width={220} shadow="md" withinPortal>
      <Menu.Target>
        <UnstyledButton aria-label="User menu" px={6} py={4} style={{ borderRadius: 'var(--mantine-radius-md)' }}>
          <Group gap="xs" wrap="nowrap">
            <Avatar color="kidogo" radius="xl" size={32} name={name} />
            <Stack gap={0} visibleFrom="sm" style={{ lineHeight: 1.2 }}>
              <Text size="sm" fw={600} truncate maw={160}>
                {name}
              </Text>
              <Text size="xs" c="dimmed">
                {role}
              </Text>
            </Stack>
            <IconChevronDown size={14} stroke={1.6} />
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>
          {name} · {role}
        </Menu.Label>
        <Menu.Item component={Link} to={paths.app.settings.getHref()} leftSection={<IconSettings size={16} />}>
          Settings
        </Menu.Item>
        <Menu.Divider />
        <Menu.Item color="red" leftSection={<IconLogout size={16} />} onClick={() => void logout()}>
          Sign Out
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
