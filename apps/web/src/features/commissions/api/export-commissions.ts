import { useMutation } from '@tanstack/react-query';
import { downloadFile, errorMessage } from '@/lib/api-client';
import { toast } from '@/lib/notify';

export const EXPORT_FAILED = 'Failed to export the commissions';

/** The name the file is saved under when the server does not give one. */
export const commissionsFileName = (month: string) => `commissions-${month}.csv`;

/** GET /commissions/export?month=YYYY-MM: the month's commissions, one row an agent, as CSV; resolves with the saved file's name. */
export const exportCommissions = (month: string) =>
  downloadFile('/commissions/export', commissionsFileName(month), { query: { month }, headers: { Accept: 'text/csv' } });

export function useExportCommissions() {
  return useMutation({
    mutationFn: exportCommissions,
    onSuccess: (name) => toast.success(`Downloaded ${name}`),
    onError: (e) => toast.error(errorMessage(e, EXPORT_FAILED), { title: EXPORT_FAILED }),
  });
}
