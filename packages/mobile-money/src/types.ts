/** Which mobile-money network the payment came through. */
export type Provider = 'mpesa' | 'airtel' | 'mtn';

/**
 * How the money was paid:
 * - paybill: to a Paybill number with an account reference (business- or customer-side SMS)
 * - till: Lipa na M-Pesa "Buy Goods" to a till number (no account reference), or an MTN MoMo merchant's
 *   "Payment received for ..."
 * - p2p: a "You have received ... from ..." transfer to a phone wallet (incl. Pochi la Biashara, Airtel, MTN MoMo)
 * - c2b: a Safaricom Daraja C2B confirmation callback (JSON, not an SMS)
 */
export type PaymentKind = 'paybill' | 'till' | 'p2p' | 'c2b';

export interface ParsedPayment {
  provider: Provider;
  kind: PaymentKind;
  /**
   * Upper-case transaction code: "QAI1S35S7Z" (M-Pesa), "1440225031704" or "MI240406.1141.Q03294" (Airtel),
   * "76662021700" (MTN's Financial Transaction Id). An MTN text that gives none is named by its time and a
   * fingerprint of its words: "MTN-20150510133512-1A2B3C4D" (the same text sent again gets the same name).
   */
  transaction_code: string;
  /** Decimal string with two decimals: "1500.00". */
  amount: string;
  /** ISO 4217: KES, UGX, TZS, RWF, GHS, ZMW */
  currency: string;
  /** As written in the message, whitespace collapsed; null when the message does not name the payer. */
  sender_name: string | null;
  /** Canonical phone ("254712345678"); null when absent or masked. */
  sender_phone: string | null;
  /** The masked number as written ("2547******678"), when the message masks it. */
  sender_phone_masked?: string;
  /**
   * ISO 8601 with the East Africa Time offset: "2024-06-05T10:15:00+03:00".
   * Date only ("2024-06-05") when the message gives no time; null when it gives no valid date.
   */
  transacted_at: string | null;
  /** The paybill account number / reference as written (trimmed); null when there is none. */
  account_reference: string | null;
  /** The receiving account's balance after the payment, when the message states it ("41614.00"). */
  balance?: string | null;
  /** Daraja only: the paybill or till number (BusinessShortCode) the payment went to. */
  business_short_code?: string | null;
}

export type ParseResult = { ok: true; payment: ParsedPayment } | { ok: false; error: string };
