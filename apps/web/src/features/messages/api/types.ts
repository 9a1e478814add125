// The API's contract (packages/contracts/src/{messages,payments,items}.ts).
import type { Item, MessageRow as ContractMessageRow } from '@kidogo/contracts';

export type { MessageListReply, MessageStats, Payment, PaymentListQuery, PaymentListReply, PaymentOutcome } from '@kidogo/contracts';

/** The contract's MESSAGE_PAGE_SIZES, repeated so the screen does not load the schemas at run time. */
export const MESSAGE_PAGE_SIZES = [10, 20, 50, 100] as const;

/** A row of GET /fetch_messages; a currency is used when the server sends one (else the spec's USD default). */
export type MessageRow = ContractMessageRow & { currency?: string | null };

export interface MessagesQuery {
  page: number;
  page_size: number;
  search?: string;
}

export type DeviceOption = Pick<Item, 'serial_number' | 'product_name' | 'manufacturer' | 'customer_name' | 'is_assigned'>;

/**
 * What the match dialog needs to know about a held payment, whether it came
 * from a message (which also shows its text) or straight from the payments list.
 */
export interface MatchTarget {
  payment_id: number;
  amount: string | null;
  currency: string | null;
  transaction_code: string | null;
  from: string | null;
  text?: string | null;
}
