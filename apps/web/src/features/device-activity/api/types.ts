// Mirrors packages/contracts/src/activity.ts of feat/api-console until it is merged.

export interface DeviceInfo {
  serial_number: string;
  product_name: string;
  product_oem: string | null;
  manufacturer?: string | null;
  status: string;
  customer_name: string | null;
  customer_id: number | null;
  token_count: number;
  is_assigned: boolean;
  assigned_at: string | null;
  price?: string;
  total_paid?: string;
  credit_until?: string | null;
}

export interface TokenHistoryEntry {
  id: number;
  token: string;
  token_type: string;
  days: number;
  amount_paid: string | null;
  currency?: string | null;
  generated_at: string;
  status: string;
  generated_by: string | null;
  customer_name: string | null;
}

export interface PaymentHistoryEntry {
  payment_id: number;
  amount: string;
  currency?: string | null;
  paid_at: string;
  status: string;
  customer_name: string | null;
  device_serial: string | null;
  transaction_code?: string | null;
  payment_method?: string | null;
}

export interface MessageHistoryEntry {
  id: number;
  received_message: string | null;
  forwarded_message: string | null;
  recipient_number: string | null;
  amount: string | null;
  currency?: string | null;
  received_at: string;
  status?: string;
}

export interface HistoryPage<T> {
  items: T[];
  total: number;
}

export interface DeviceActivity {
  data: {
    device_info: DeviceInfo;
    token_history: HistoryPage<TokenHistoryEntry>;
    payment_history: HistoryPage<PaymentHistoryEntry>;
    message_history: HistoryPage<MessageHistoryEntry>;
    page?: number;
    limit?: number;
  };
}
