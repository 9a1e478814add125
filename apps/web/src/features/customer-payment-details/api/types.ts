// Mirrors ZCustomerPaymentDetailsSchema in packages/contracts/src/activity.ts of
// feat/api-console until it is merged.

export interface PaymentHistoryEntry {
  payment_id: number;
  amount: string;
  paid_at: string;
  status: string;
  customer_name: string | null;
  device_serial: string | null;
  transaction_code?: string | null;
  payment_method?: string | null;
}

export interface CustomerPaymentDetails {
  data: {
    customer_info: {
      customer_id: number;
      customer_name: string;
      phone_contact: string;
      email: string | null;
      status?: string;
      device_serial: string | null;
      product_name: string | null;
      product_oem: string | null;
    };
    payment_template: {
      template_id: number;
      template_name: string;
      daily_price: string;
      activation_price: string;
      grace_period_days: number;
      currency?: string;
      deposit_made?: string;
    } | null;
    payment_summary: {
      total_paid: string;
      free_code_price: string;
      remaining_balance: string;
      payment_progress: number;
      is_fully_paid: boolean;
      payment_count?: number;
    };
    payment_history: PaymentHistoryEntry[];
  };
}
