import { useMutation } from '@tanstack/react-query';
import { downloadFile, errorMessage } from '@/lib/api-client';
import { toast } from '@/lib/notify';
import type { CashHandoversExportQuery } from '@kidogo/contracts';

/** The name the file is saved under when the server does not give one. */
export const HANDOVERS_FILE_NAME = 'cash-handovers.csv';
export const EXPORT_FAILED = 'Failed to export the handovers';

/** GET /cash/handovers/export: the handovers of a period (of one collector) as CSV; resolves with the saved file's name. */
export const exportCashHandovers = (q: CashHandoversExportQuery) =>
  downloadFile('/cash/handovers/export', HANDOVERS_FILE_NAME, { query: { ...q }, headers: { Accept: 'text/csv' } });

export function useExportCashHandovers() {
  return useMutation({
    mutationFn: exportCashHandovers,
    onSuccess: (name) => toast.success(`Downloaded ${name}`),
    onError: (e) => toast.error(errorMessage(e, EXPORT_FAILED), { title: EXPORT_FAILED }),
  });
}
