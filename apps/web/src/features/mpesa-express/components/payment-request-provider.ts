import type { PaymentRequestProvider } from '@kidogo/contracts';

/** A provider as a sentence names it: "Check with M-Pesa", "check with MTN MoMo", "check with Airtel Money". */
export const PROVIDER_NAMES: Record<PaymentRequestProvider, string> = { mpesa_express: 'M-Pesa', mtn_momo: 'MTN MoMo', airtel_money: 'Airtel Money' };

/** What a paid request's receipt (the payment's transaction code) is called by its provider. */
export const RECEIPT_LABELS: Record<PaymentRequestProvider, string> = {
  mpesa_express: 'M-Pesa Receipt',
  mtn_momo: 'MTN MoMo Transaction',
  airtel_money: 'Airtel Money Transaction',
};

/** The button that asks the provider what became of a request whose result has not come. */
export const checkLabel = (provider: PaymentRequestProvider) => `Check with ${PROVIDER_NAMES[provider]}`;
export const checkFailed = (provider: PaymentRequestProvider) => `Could not check with ${PROVIDER_NAMES[provider]}`;
