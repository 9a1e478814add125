import { useMutation } from '@tanstack/react-query';
import { downloadFile, errorMessage } from '@/lib/api-client';
import { toast } from '@/lib/notify';

export const PERSONAL_DATA_FAILED = 'Failed to download the personal data';

/**
 * Everything held about one customer, as the one file to hand them: a ZIP of
 * the data (JSON) and the files of their documents (owners and admins; the
 * server records who asked). Resolves with the saved file's name.
 */
export const downloadPersonalData = (customerId: number) =>
  downloadFile(`/customers/${customerId}/personal-data?format=zip`, `customer-${customerId}-personal-data.zip`, {
    headers: { Accept: 'application/zip' },
  });

export function useDownloadPersonalData() {
  return useMutation({
    mutationFn: downloadPersonalData,
    onSuccess: (name) => toast.success(`Downloaded ${name}`),
    onError: (e) => toast.error(errorMessage(e, PERSONAL_DATA_FAILED), { title: PERSONAL_DATA_FAILED }),
  });
}
