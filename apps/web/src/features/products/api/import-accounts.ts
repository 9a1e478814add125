import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ACCOUNT_IMPORT_FIELD, type AccountsImportReport } from '@kidogo/contracts';
import { upload, type UploadProgress } from '@/lib/api-client';
import { refreshAfterWrite } from '@/lib/query-client';
import type { UploadRequest } from '@/hooks/use-file-upload';

/**
 * POST /items/accounts/import, multipart with the file under `file`: which customer holds which device, since when,
 * what was paid and until when its credit runs. A dry run checks every row as the import would, and keeps nothing.
 */
export function importAccounts(file: File, { dryRun, onProgress, signal }: { dryRun: boolean; onProgress?: (p: UploadProgress) => void; signal?: AbortSignal }) {
  const form = new FormData();
  form.append(ACCOUNT_IMPORT_FIELD, file, file.name);
  return upload<AccountsImportReport>('/items/accounts/import', form, { onProgress, signal, query: { dry_run: dryRun ? 'true' : undefined } });
}

/** `dryRun` left out is a dry run: only an explicit `dryRun: false` keeps anything. */
export type AccountsImportRequest = UploadRequest & { dryRun?: boolean };

export function useImportAccounts(onProgress?: (p: UploadProgress) => void) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ file, signal, dryRun = true }: AccountsImportRequest) => importAccounts(file, { dryRun, onProgress, signal }),
    // Devices given out show on other screens too (customers, activity, dashboard): after an import everything cached is stale.
    onSuccess: (report) => (report.dry_run ? undefined : refreshAfterWrite(qc)),
  });
}
