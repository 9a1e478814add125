// The API's contract (packages/contracts/src/payments.ts and items.ts).
import type { Item } from '@kidogo/contracts';

export { PAYMENT_METHODS, ZManualPaymentSchema } from '@kidogo/contracts';
export type { CashCollectorsReply, CustomerItemsReply, IssuedToken, ManualPaymentInput, PaymentMethod, PaymentOutcome } from '@kidogo/contracts';

/** A device the payment may be for (GET /customers/{id}/items). */
export type CustomerDevice = Pick<Item, 'serial_number' | 'product_name' | 'status'>;
