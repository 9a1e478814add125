import { Badge } from '@mantine/core';

const COLORS: Record<string, string> = { active: 'green', suspended: 'yellow', disabled: 'red' };

/** Active green, suspended yellow, disabled red; no status reads as active (spec §9). */
export function OrgStatusBadge({ status }: { status: string | null | undefined }) {
  const s = (status ?? '').trim().toLowerCase() || 'active';
  return (
    <Badge miw="max-content" color={COLORS[s] ?? 'gray'} variant="light" radius="sm">
      {s.charAt(0).toUpperCase() + s.slice(1)}
    </Badge>
  );
}
