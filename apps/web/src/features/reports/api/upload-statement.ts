import { useMutation, useQueryClient } from '@tanstack/react-query';
import { upload, type UploadProgress } from '@/lib/api-client';
import { refreshAfterWrite } from '@/lib/query-client';
import type { StatementImportReply } from './types';

/** POST /reports/upload-csv, multipart with the statement under `file`: every payment in it goes through the pipeline once. */
export function uploadStatement(file: File, onProgress?: (p: UploadProgress) => void, signal?: AbortSignal) {
  const form = new FormData();
  form.append('file', file, file.name);
  return upload<StatementImportReply>('/reports/upload-csv', form, { onProgress, signal });
}

export function useUploadStatement(onProgress?: (p: UploadProgress) => void) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ file, signal }: { file: File; signal?: AbortSignal }) => uploadStatement(file, onProgress, signal),
    // New payments, tokens and replies: the reports on screen, the dashboard and every history read again.
    onSuccess: () => refreshAfterWrite(qc),
  });
}
