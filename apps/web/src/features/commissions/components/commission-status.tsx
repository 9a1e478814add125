import { Badge, Stack, Text, Tooltip } from '@mantine/core';
import { formatDate } from '@/components/ui/date-text';
import { formatMoney } from '@/components/ui/money';
import type { CommissionAgent, CommissionPayout, CommissionStatus } from '../api/types';

const BADGES: Record<CommissionStatus, { label: string; color: string }> = {
  paid: { label: 'Paid', color: 'green' },
  unpaid: { label: 'Unpaid', color: 'orange' },
  nothing_due: { label: 'Nothing Due', color: 'gray' },
};

/** "Paid KES 1,250.00 by mary on Dec 2, 2026, 12:00 PM · Ref QK71ABC123". */
export const paidText = (p: CommissionPayout, currency: string | null) =>
  `Paid ${formatMoney(p.amount, currency)} by ${p.paid_by} on ${formatDate(p.paid_at, true)}${p.reference ? ` · Ref ${p.reference}` : ''}`;

/** "+KES 250.00" owed on top of what was paid, "−KES 250.00" paid too much. */
export function signedMoney(amount: string, currency: string | null): string {
  const n = Number(amount);
  const sign = n > 0 ? '+' : n < 0 ? '−' : '';
  return `${sign}${formatMoney(Math.abs(n), currency)}`;
}

/** Paid (green: when, and the reference, under it; the whole payout in its tooltip), Unpaid (orange) or Nothing Due (grey). */
export function CommissionStatusCell({ row, currency }: { row: CommissionAgent; currency: string | null }) {
  const badge = BADGES[row.status];
  const payout = row.status === 'paid' ? row.payout : null;
  const shown = (
    <Badge miw="max-content" color={badge.color} variant="light" radius="sm">
      {badge.label}
    </Badge>
  );
  if (!payout) return shown;
  return (
    <Stack gap={2} align="flex-start">
      <Tooltip label={paidText(payout, currency)} multiline maw={320} withArrow>
        {shown}
      </Tooltip>
      <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
        {formatDate(payout.paid_at)}
        {payout.reference ? ` · Ref ${payout.reference}` : ''}
      </Text>
    </Stack>
  );
}
