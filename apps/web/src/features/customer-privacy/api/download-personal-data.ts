import { useMutation } from '@tanstack/react-query';
import { downloadFile, errorMessage } from '@/lib/api-client';
import { toast } from '@/lib/notify';

export const PERSONAL_DATA_FAILED = 'Failed to download the personal data';

/**
 * Everything held about one customer, as the JSON file to hand them (owners
 * and admins; the server records who asked). Resolves with the saved file's name.
 */
export const downloadPersonalData = (customerId: number) =>
  downloadFile(`/customers/${customerId}/personal-data`, `customer-${customerId}-personal-data.json`, {
    headers: { Accept: 'application/json' },
  });

export function useDownloadPersonalData() {
  return useMutation({
    mutationFn: downloadPersonalData,
    onSuccess: (name) => toast.success(`Downloaded ${name}`),
    onError: (e) => toast.error(errorMessage(e, PERSONAL_DATA_FAILED), { title: PERSONAL_DATA_FAILED }),
  });
}
