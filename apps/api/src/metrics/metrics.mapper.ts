import type { RecentPayment, UsageRecentToken } from '@kidogo/contracts';

export interface RecentPaymentRow {
  payment_id: number;
  amount: string;
  status: string;
  customer_name: string | null;
  customer_id: number | null;
  payment_method: string;
  created_at: Date;
  paid_at: Date;
  serial_number: string | null;
  transaction_code: string | null;
}

export interface RecentTokenRow {
  id: number;
  token_value: string;
  serial_number: string;
  customer_name: string | null;
  token_type: string;
  days: number;
  status: string;
  is_valid: boolean;
  created_at: Date;
}

export const MetricsMapper = {
  recentCustomer(c: { id: number; customer_name: string; phone_contact: string; county: string | null; status: string; created_at: Date }) {
    return {
      customer_id: c.id,
      customer_name: c.customer_name,
      phone_contact: c.phone_contact,
      county: c.county,
      status: c.status,
      created_at: c.created_at.toISOString(),
    };
  },

  recentPayment(r: RecentPaymentRow): RecentPayment {
    return { ...r, created_at: r.created_at.toISOString(), paid_at: r.paid_at.toISOString() };
  },

  recentToken(r: RecentTokenRow): UsageRecentToken {
    return {
      id: r.id,
      token: r.token_value,
      serial_number: r.serial_number,
      customer_name: r.customer_name,
      token_type: r.token_type,
      days: r.days,
      status: r.status,
      is_valid: r.is_valid,
      created_at: r.created_at.toISOString(),
    };
  },
};
