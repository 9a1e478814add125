import { Badge } from '@mantine/core';
import type { Role } from '@kidogo/contracts';

export const ROLE_LABELS: Record<Role, string> = {
  super_admin: 'Super Admin',
  owner: 'Owner',
  admin: 'Admin',
  staff: 'Staff',
};

const ROLE_COLORS: Record<Role, string> = { super_admin: 'grape', owner: 'blue', admin: 'teal', staff: 'gray' };

/** 'Super Admin' for super_admin; an unknown role as it came. */
export const roleLabel = (role: string) => ROLE_LABELS[role as Role] ?? role;

/** A user's role, coloured the same in the console and in Settings. */
export function RoleBadge({ role }: { role: string }) {
  return (
    <Badge miw="max-content" color={ROLE_COLORS[role as Role] ?? 'gray'} variant="light" radius="sm">
      {roleLabel(role)}
    </Badge>
  );
}
