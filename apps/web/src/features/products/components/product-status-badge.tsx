import { Badge } from '@mantine/core';

const COLORS: Record<string, string> = {
  available: 'blue',
  assigned: 'green',
  maintenance: 'yellow',
  retired: 'gray',
};

const label = (s: string) => (s ? s.charAt(0).toUpperCase() + s.slice(1) : 'Unknown');

/** A device's status: available, assigned, maintenance or retired. */
export function ProductStatusBadge({ status }: { status: string | null | undefined }) {
  const s = (status ?? '').trim().toLowerCase();
  return (
    <Badge miw="max-content" color={COLORS[s] ?? 'gray'} variant="light" radius="sm">
      {label(s)}
    </Badge>
  );
}
