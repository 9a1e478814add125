import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, suspendableList } from '@/lib/api-client';
import { invoiceKeys } from './keys';
import type { Invoice, InvoiceListReply } from './types';

/** The list call asks for the 50 newest (spec §9); the screen pages them 10 at a time. */
export const INVOICE_FETCH_LIMIT = 50;
export const INVOICE_PAGE_SIZE = 10;

export const getInvoices = (admin: boolean, signal?: AbortSignal) =>
  suspendableList<{ data: Invoice[]; total: number }>(
    api
      .get<Partial<InvoiceListReply> | Invoice[] | null>(admin ? '/admin/invoices' : '/invoices', {
        query: admin ? { limit: INVOICE_FETCH_LIMIT, offset: 0 } : { page: 1, limit: INVOICE_FETCH_LIMIT },
        signal,
      })
      .then((reply) => {
        // A data array or a bare array (spec §7).
        const data = Array.isArray(reply) ? reply : (reply?.data ?? []);
        const total = Array.isArray(reply) ? reply.length : (reply?.pagination?.total ?? data.length);
        return { data, total };
      }),
    { total: 0 },
  );

export const invoicesQueryOptions = (admin: boolean) =>
  queryOptions({ queryKey: invoiceKeys.list(admin), queryFn: ({ signal }) => getInvoices(admin, signal) });

export const useInvoices = (admin: boolean) => useQuery(invoicesQueryOptions(admin));
