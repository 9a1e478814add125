import { useMutation } from '@tanstack/react-query';
import { downloadFile } from '@/lib/api-client';

/** Saved as invoice-{id}.pdf unless the server names it. */
export const downloadInvoice = (id: string) =>
  downloadFile(`/download-invoice/${encodeURIComponent(id)}`, `invoice-${id}.pdf`);

export const useDownloadInvoice = () => useMutation({ mutationFn: downloadInvoice });
