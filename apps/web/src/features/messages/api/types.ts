// Mirrors packages/contracts/src/{messages,payments}.ts of feat/api-money until merged.

export const MESSAGE_PAGE_SIZES = [10, 20, 50, 100] as const;

export type MessageStatus = 'received' | 'processed' | 'duplicate' | 'unmatched' | 'unparsed';
export type DeliveryStatus = 'none' | 'queued' | 'sending' | 'sent' | 'failed';

export interface MessageRow {
  id: number;
  Incoming: string | null;
  Outgoing: string | null;
  'Phone No.': string | null;
  amount: string | null;
  /** Not in the contract yet; shown when the server sends it (else the spec's USD default). */
  currency?: string | null;
  date: string;
  status: MessageStatus | (string & {});
  delivery_status: DeliveryStatus | (string & {});
  payment_id: number | null;
  transaction_code: string | null;
}

export interface MessageListReply {
  data: MessageRow[];
  total_pages: number;
  current_page: number;
  page_size: number;
  total_items: number;
  has_next: boolean;
  has_previous: boolean;
}

export interface MessagesQuery {
  page: number;
  page_size: number;
  search?: string;
}

export interface MessageStats {
  today: number;
  this_week: number;
  processed: number;
  duplicate: number;
  unmatched: number;
  unparsed: number;
  amount_received: string;
  outbox?: { queued: number; sent: number; failed: number };
}

export interface PaymentOutcome {
  status: 'processed' | 'duplicate' | 'unmatched' | 'unparsed';
  payment_id?: number;
  token?: string;
  days?: number;
  serial_number?: string | null;
  reply_message?: string | null;
}

export interface DeviceOption {
  serial_number: string;
  product_name: string;
  manufacturer: string | null;
  customer_name: string | null;
  is_assigned: boolean;
}
