import { useMutation } from '@tanstack/react-query';
import { download, errorMessage, saveBlob } from '@/lib/api-client';
import { toast } from '@/lib/notify';

/** The customers page always saves the export under this name (spec §9). */
export const EXPORT_FILE_NAME = 'customers.csv';
export const EXPORT_FAILED = 'Failed to export customers';

export async function exportCustomers(): Promise<string> {
  const { blob } = await download('/export-customers-csv', EXPORT_FILE_NAME, { headers: { Accept: 'text/csv' } });
  saveBlob(blob, EXPORT_FILE_NAME);
  return EXPORT_FILE_NAME;
}

export function useExportCustomers() {
  return useMutation({
    mutationFn: exportCustomers,
    onError: (e) => toast.error(errorMessage(e, EXPORT_FAILED), { title: EXPORT_FAILED }),
  });
}
