import { queryOptions, useQuery } from '@tanstack/react-query';
import { download } from '@/lib/api-client';
import { invoiceKeys } from './keys';

/** GET /invoice/{id}: the invoice rendered as an HTML page. */
export async function getInvoiceHtml(id: string, signal?: AbortSignal): Promise<string> {
  const { blob } = await download(`/invoice/${encodeURIComponent(id)}`, `invoice-${id}.html`, {
    signal,
    headers: { Accept: 'text/html' },
  });
  return blob.text();
}

export const invoiceHtmlQueryOptions = (id: string) =>
  queryOptions({ queryKey: invoiceKeys.html(id), queryFn: ({ signal }) => getInvoiceHtml(id, signal), staleTime: 0 });

export const useInvoiceHtml = (id: string | null) => useQuery({ ...invoiceHtmlQueryOptions(id ?? ''), enabled: id !== null });
