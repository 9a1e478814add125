import type { DeviceDiscount } from '@kidogo/contracts';
import { formatMoney } from '@/components/ui/money';
import { VoidModal } from '@/components/ui/void-modal';
import { useVoidDiscount } from '../api/void-discount';

/**
 * Void a discount given by mistake (the wrong device, the wrong amount): what
 * it took off is back on what the customer has left to pay, and the discount
 * stays listed as voided, with who and why.
 */
export function VoidDiscountModal({ discount, onClose }: { discount: DeviceDiscount | null; onClose: () => void }) {
  const voiding = useVoidDiscount();
  const amount = (d: DeviceDiscount) => formatMoney(d.amount, d.currency);
  return (
    <VoidModal
      target={discount}
      targetKey={(d) => d.discount_id}
      title="Void Discount"
      summary={(d) => `${amount(d)} off for ${d.customer_name} · ${d.reason}`}
      explanation={(d) =>
        `For a discount given by mistake, on the wrong device or for the wrong amount. Voiding it puts ${amount(d)} back on what ` +
        `${d.customer_name} has left to pay on ${d.serial_number}; the discount stays listed as voided, with who voided it and why.`
      }
      voiding={voiding}
      variables={(d, reason) => ({ discountId: d.discount_id, reason })}
      failed="Failed to void the discount"
      tooShort="Say why this discount is voided"
      placeholder="e.g. Given on the wrong device"
      onClose={onClose}
    />
  );
}
