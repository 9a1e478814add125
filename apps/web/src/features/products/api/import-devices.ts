import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CsvImportReport } from '@kidogo/contracts';
import { upload, type UploadProgress } from '@/lib/api-client';
import { refreshAfterWrite } from '@/lib/query-client';
import { productKeys } from './keys';

/** POST /items/add/bulk, multipart with the file under `file`: the device maker's list of serials and factory keys. */
export function importDevices(file: File, onProgress?: (p: UploadProgress) => void, signal?: AbortSignal) {
  const form = new FormData();
  form.append('file', file, file.name);
  return upload<CsvImportReport>('/items/add/bulk', form, { onProgress, signal });
}

export function useImportDevices(onProgress?: (p: UploadProgress) => void) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ file, signal }: { file: File; signal?: AbortSignal }) => importDevices(file, onProgress, signal),
    onSuccess: () => refreshAfterWrite(qc, { queryKey: productKeys.all }),
  });
}
