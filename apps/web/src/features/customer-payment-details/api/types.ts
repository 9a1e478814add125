// The API's contract (ZCustomerPaymentDetailsSchema in packages/contracts/src/activity.ts).
export type { CustomerPaymentDetails, PaymentHistoryEntry } from '@kidogo/contracts';
