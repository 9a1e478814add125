import { Badge } from '@mantine/core';

const COLORS: Record<string, string> = {
  pending: 'yellow',
  sent: 'blue',
  paid: 'green',
  overdue: 'red',
  draft: 'gray',
  cancelled: 'dark',
};

/** An unknown status reads in the draft style (spec §2). */
export function invoiceStatusColor(status: string | null | undefined) {
  return COLORS[(status ?? '').toLowerCase()] ?? COLORS.draft;
}

export function InvoiceStatusBadge({ status }: { status: string | null | undefined }) {
  const s = (status ?? '').trim() || 'draft';
  return (
    <Badge miw="max-content" color={invoiceStatusColor(s)} variant="light" radius="sm">
      {s.charAt(0).toUpperCase() + s.slice(1)}
    </Badge>
  );
}
