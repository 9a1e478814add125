import { useMutation } from '@tanstack/react-query';
import { downloadFile, errorMessage } from '@/lib/api-client';
import { toast } from '@/lib/notify';
import type { AuditFilters } from './get-audit-log';

/** The name the file is saved under when the server does not give one. */
export const EXPORT_FILE_NAME = 'activity-log.csv';
export const EXPORT_FAILED = 'Failed to export the activity log';

/** Every entry the filters match (all pages), as the server writes it; resolves with the saved file's name. */
export const exportAuditLog = (filters: AuditFilters) =>
  downloadFile('/audit-log/export', EXPORT_FILE_NAME, { query: { ...filters }, headers: { Accept: 'text/csv' } });

export function useExportAuditLog() {
  return useMutation({
    mutationFn: exportAuditLog,
    onSuccess: (name) => toast.success(`Downloaded ${name}`),
    onError: (e) => toast.error(errorMessage(e, EXPORT_FAILED), { title: EXPORT_FAILED }),
  });
}
