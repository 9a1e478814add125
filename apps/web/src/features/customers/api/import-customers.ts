import { useMutation, useQueryClient } from '@tanstack/react-query';
import { upload, type UploadProgress } from '@/lib/api-client';
import { customerKeys } from './keys';
import type { CsvImportReport } from './types';
import { refreshAfterWrite } from '@/lib/query-client';

/** POST /upload-csv, multipart with the file under csv_file (spec §7). */
export function importCustomers(file: File, onProgress?: (p: UploadProgress) => void, signal?: AbortSignal) {
  const form = new FormData();
  form.append('csv_file', file, file.name);
  return upload<CsvImportReport>('/upload-csv', form, { onProgress, signal });
}

export function useImportCustomers(onProgress?: (p: UploadProgress) => void) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ file, signal }: { file: File; signal?: AbortSignal }) => importCustomers(file, onProgress, signal),
    onSuccess: () => refreshAfterWrite(qc, { queryKey: customerKeys.all }),
  });
}
