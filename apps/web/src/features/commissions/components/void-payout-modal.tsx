import { formatDate } from '@/components/ui/date-text';
import { formatMoney } from '@/components/ui/money';
import { VoidModal } from '@/components/ui/void-modal';
import type { CommissionPayout } from '../api/types';
import { useVoidCommissionPayout } from '../api/void-commission-payout';
import { monthLabel } from './months';

export const VOID_FAILED = 'Failed to void the payout';
export const REASON_TOO_SHORT = 'Reason must say why, in at least 3 characters';

/** What the payout was: "KES 1,250.00 paid to baraka for November 2026, on Dec 2, 2026, 12:00 PM by mary". */
const payoutText = (p: CommissionPayout, currency: string | null) =>
  `${formatMoney(p.amount, currency)} paid to ${p.agent} for ${monthLabel(p.month)}, on ${formatDate(p.paid_at, true)} by ${p.paid_by}`;

/** Void Payout (owners and admins): asks why, then the commission shows as unpaid again. */
export function VoidPayoutModal({ payout, currency, onClose }: { payout: CommissionPayout | null; currency: string | null; onClose: () => void }) {
  const voiding = useVoidCommissionPayout();
  return (
    <VoidModal
      target={payout}
      targetKey={(p) => p.payout_id}
      title="Void Payout"
      summary={(p) => payoutText(p, currency)}
      explanation={() => "For a payout recorded by mistake: the commission shows as unpaid again. The payout stays in the agent's history, struck through, with why."}
      voiding={voiding}
      variables={(p, reason) => ({ payoutId: p.payout_id, reason })}
      failed={VOID_FAILED}
      tooShort={REASON_TOO_SHORT}
      placeholder="e.g. Recorded for the wrong agent"
      onClose={onClose}
    />
  );
}
