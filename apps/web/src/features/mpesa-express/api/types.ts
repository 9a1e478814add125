/** What a Payment Requests table asks GET /payment-requests for (the contract's query with its defaults applied). */
export interface PaymentRequestsListQuery {
  page: number;
  limit: number;
  serial_number?: string;
  customer_id?: number;
}
