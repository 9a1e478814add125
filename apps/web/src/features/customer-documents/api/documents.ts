import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CustomerDocument, CustomerDocumentReply, CustomerDocumentsReply, DocumentKind } from '@kidogo/contracts';
import { api, download, downloadFile, errorMessage, upload, type UploadProgress } from '@/lib/api-client';
import { toast } from '@/lib/notify';
import { refreshAfterWrite } from '@/lib/query-client';
import { shrinkPhoto } from './shrink-photo';

export const DOCUMENTS_FAILED = 'Could not load the documents';
export const DOWNLOAD_FAILED = 'Failed to download the document';
export const DELETE_FAILED = 'Failed to delete the document';

/**
 * Query keys of a customer's documents. Adding or deleting one refreshes the
 * list; a file, once fetched, does not change (a document is never edited).
 */
export const documentKeys = {
  all: ['customer-documents'] as const,
  list: (customerId: number) => [...documentKeys.all, customerId, 'list'] as const,
  file: (customerId: number, documentId: number) => [...documentKeys.all, customerId, 'file', documentId] as const,
};

const base = (customerId: number) => `/customers/${customerId}/documents`;

/** GET /customers/{id}/documents: newest first, without the files. */
export const getDocuments = (customerId: number, signal?: AbortSignal) => api.get<CustomerDocumentsReply>(base(customerId), { signal });

export function useDocuments(customerId: number) {
  return useQuery({ queryKey: documentKeys.list(customerId), queryFn: ({ signal }) => getDocuments(customerId, signal) });
}

type FileRef = Pick<CustomerDocument, 'customer_id' | 'document_id' | 'file_name'>;

/** The file itself, to show: kept while the page is open (a document never changes). */
export const documentFileQuery = (doc: FileRef) =>
  queryOptions({
    queryKey: documentKeys.file(doc.customer_id, doc.document_id),
    queryFn: ({ signal }) => download(`${base(doc.customer_id)}/${doc.document_id}/file`, doc.file_name, { signal }).then((r) => r.blob),
    staleTime: Infinity,
    gcTime: 5 * 60_000,
  });

/** A blob as a data: URL, its bytes in base64 (in slices: a photo is too long for one call). */
export async function dataUrlOf(blob: Blob): Promise<string> {
  const bytes = new Uint8Array(await blob.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return `data:${blob.type || 'application/octet-stream'};base64,${btoa(binary)}`;
}

/** A photo as a data: URL for an <img>: nothing to revoke, however often the page draws it. */
export function useDocumentImage(doc: FileRef, enabled = true) {
  const qc = useQueryClient();
  return useQuery({
    queryKey: [...documentKeys.file(doc.customer_id, doc.document_id), 'image'] as const,
    queryFn: async () => dataUrlOf(await qc.fetchQuery(documentFileQuery(doc))),
    staleTime: Infinity,
    gcTime: 5 * 60_000,
    enabled,
  });
}

export interface DocumentUpload {
  customerId: number;
  kind: DocumentKind;
  note: string;
  file: File;
}

/**
 * POST /customers/{id}/documents, multipart: a phone camera's photo is made
 * smaller first (shrinkPhoto), so it goes up quickly on a field agent's
 * connection and the database keeps what is needed to read an ID card.
 */
export async function uploadDocument(input: DocumentUpload, onProgress?: (p: UploadProgress) => void): Promise<CustomerDocumentReply> {
  const file = await shrinkPhoto(input.file);
  const form = new FormData();
  form.append('kind', input.kind);
  if (input.note.trim()) form.append('note', input.note.trim());
  form.append('file', file, file.name);
  return upload<CustomerDocumentReply>(base(input.customerId), form, { onProgress });
}

export function useUploadDocument(onProgress?: (p: UploadProgress) => void) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: DocumentUpload) => uploadDocument(input, onProgress),
    onSuccess: (_reply, input) => refreshAfterWrite(qc, { queryKey: documentKeys.list(input.customerId) }),
  });
}

/** DELETE /customers/{id}/documents/{document_id} (owners and admins). */
export function useDeleteDocument() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (doc: Pick<CustomerDocument, 'customer_id' | 'document_id'>) =>
      api.delete<{ message: string }>(`${base(doc.customer_id)}/${doc.document_id}`),
    onSuccess: (reply, doc) => {
      toast.success(reply?.message ?? 'Document deleted');
      qc.removeQueries({ queryKey: documentKeys.file(doc.customer_id, doc.document_id) });
      return refreshAfterWrite(qc, { queryKey: documentKeys.list(doc.customer_id) });
    },
    onError: (e) => toast.error(errorMessage(e, DELETE_FAILED), { title: DELETE_FAILED }),
  });
}

/** Saves the document under its own name. */
export function useDownloadDocument() {
  return useMutation({
    mutationFn: (doc: Pick<CustomerDocument, 'customer_id' | 'document_id' | 'file_name'>) =>
      downloadFile(`${base(doc.customer_id)}/${doc.document_id}/file`, doc.file_name, { query: { download: true } }),
    onError: (e) => toast.error(errorMessage(e, DOWNLOAD_FAILED), { title: DOWNLOAD_FAILED }),
  });
}
