import { useMutation } from '@tanstack/react-query';
import { ACCOUNT_EXPORT_FILE_NAME, PRODUCT_EXPORT_FILE_NAME } from '@kidogo/contracts';
import { downloadFile, errorMessage } from '@/lib/api-client';
import { toast } from '@/lib/notify';
import type { ProductListQuery } from './types';

export const EXPORT_FAILED = 'Failed to export the devices';

export type ProductExportQuery = Pick<ProductListQuery, 'search' | 'status' | 'location_id'>;

/** The devices of the page's filters as CSV (GET /products/export), saved as products.csv. */
export const exportProducts = (q: ProductExportQuery) =>
  downloadFile('/products/export', PRODUCT_EXPORT_FILE_NAME, {
    headers: { Accept: 'text/csv' },
    query: { search: q.search, status: q.status, location_id: q.location_id },
  });

export function useExportProducts() {
  return useMutation({
    mutationFn: exportProducts,
    onError: (e) => toast.error(errorMessage(e, EXPORT_FAILED), { title: EXPORT_FAILED }),
  });
}

export const ACCOUNTS_EXPORT_FAILED = 'Failed to export the accounts';

/** Every device given to a customer now, in the columns of Import Accounts (GET /items/accounts/export): accounts.csv. */
export const exportAccounts = () => downloadFile('/items/accounts/export', ACCOUNT_EXPORT_FILE_NAME, { headers: { Accept: 'text/csv' } });

export function useExportAccounts() {
  return useMutation({
    mutationFn: exportAccounts,
    onError: (e) => toast.error(errorMessage(e, ACCOUNTS_EXPORT_FAILED), { title: ACCOUNTS_EXPORT_FAILED }),
  });
}
