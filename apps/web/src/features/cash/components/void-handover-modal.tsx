import { formatDate } from '@/components/ui/date-text';
import { formatMoney } from '@/components/ui/money';
import { VoidModal } from '@/components/ui/void-modal';
import type { CashLedgerEntry } from '../api/types';
import { useVoidCashHandover } from '../api/void-cash-handover';

export const VOID_FAILED = 'Failed to void the handover';

/** What the handover was: "KES 1,200.00 handed to amina on 4 Dec 2026, 10:00". */
const handoverText = (h: CashLedgerEntry) =>
  `${formatMoney(Math.abs(Number(h.amount)), h.currency)} handed to ${h.received_by ?? 'the office'} on ${formatDate(h.at, true)}`;

/** Void Handover (owners and admins): asks why, then the cash counts as held again. */
export function VoidHandoverModal({ handover, collector, onClose }: { handover: CashLedgerEntry | null; collector: string; onClose: () => void }) {
  const voiding = useVoidCashHandover();
  return (
    <VoidModal
      target={handover}
      targetKey={(h) => h.id}
      title="Void Handover"
      summary={handoverText}
      explanation={() =>
        `For a handover recorded by mistake: the cash counts as held by ${collector} again. The handover stays in the ledger, struck through, with why.`
      }
      voiding={voiding}
      variables={(h, reason) => ({ handoverId: h.id, reason })}
      failed={VOID_FAILED}
      tooShort="Say why, in at least 3 characters"
      reasonLabel="Why?"
      placeholder="e.g. Recorded twice: the deposit slip was entered yesterday"
      onClose={onClose}
    />
  );
}
