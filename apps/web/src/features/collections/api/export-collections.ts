import { useMutation } from '@tanstack/react-query';
import { downloadFile, errorMessage } from '@/lib/api-client';
import { toast } from '@/lib/notify';
import type { AgentFilter, CollectionBucketFilter } from './types';

/** The name the file is saved under when the server does not give one. */
export const EXPORT_FILE_NAME = 'collections.csv';
export const EXPORT_FAILED = 'Failed to export collections';

export interface ExportCollectionsVariables {
  bucket: CollectionBucketFilter;
  /** One sales agent's devices only; null for every agent's. */
  agent: AgentFilter;
}

/** Every device of the chosen band and agent (all pages), as the server writes it; resolves with the saved file's name. */
export const exportCollections = ({ bucket, agent }: ExportCollectionsVariables) =>
  downloadFile('/collections/export', EXPORT_FILE_NAME, { query: { bucket, agent }, headers: { Accept: 'text/csv' } });

export function useExportCollections() {
  return useMutation({
    mutationFn: exportCollections,
    onError: (e) => toast.error(errorMessage(e, EXPORT_FAILED), { title: EXPORT_FAILED }),
  });
}
