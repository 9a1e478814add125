import type { PaymentRequest, PaymentRequestsReply } from '@kidogo/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api, suspendableList } from '@/lib/api-client';
import { mpesaExpressKeys } from './keys';
import type { PaymentRequestsListQuery } from './types';

/** The contract's default page size. */
export const PAYMENT_REQUESTS_PAGE_SIZE = 10;

/** While a listed request waits for its customer, the list is read again this often, so its outcome shows up. */
export const PENDING_LIST_REFRESH_MS = 10_000;

export interface PaymentRequestsPage {
  data: PaymentRequest[];
  total: number;
  totalPages: number;
}

/** GET /payment-requests: one device's (serial_number) or one customer's (customer_id), newest first. */
export const getPaymentRequests = (q: PaymentRequestsListQuery, signal?: AbortSignal) =>
  suspendableList<PaymentRequestsPage>(
    api
      .get<Partial<PaymentRequestsReply> | null>('/payment-requests', {
        query: { page: q.page, limit: q.limit, serial_number: q.serial_number, customer_id: q.customer_id },
        signal,
      })
      .then((reply) => {
        const data = reply?.data?.items ?? [];
        const total = reply?.data?.pagination?.total ?? data.length;
        return { data, total, totalPages: reply?.data?.pagination?.total_pages ?? Math.ceil(total / q.limit) };
      }),
    { total: 0, totalPages: 0 },
  );

export const paymentRequestsQueryOptions = (q: PaymentRequestsListQuery) =>
  queryOptions({ queryKey: mpesaExpressKeys.list(q), queryFn: ({ signal }) => getPaymentRequests(q, signal) });

/** The previous page stays on screen while the next one loads; a page with a request still waiting is read again now and then. */
export const usePaymentRequests = (q: PaymentRequestsListQuery) =>
  useQuery({
    ...paymentRequestsQueryOptions(q),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data?.data.some((r) => r.status === 'pending') ? PENDING_LIST_REFRESH_MS : false),
  });
