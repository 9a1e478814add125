import { useMutation } from '@tanstack/react-query';
import { download, errorMessage, saveBlob } from '@/lib/api-client';
import { useBusinessToday } from '@/lib/business-day';
import { toast } from '@/lib/notify';
import type { RepaymentStanding } from '@kidogo/contracts';
import type { ReportKind } from './types';

export const DOWNLOAD_FAILED = 'Failed to download report';

export interface ReportDownload {
  report: ReportKind;
  from: string;
  to: string;
  format: 'csv' | 'pdf';
  /** The portfolio report of one sales agent's customers. */
  agent?: string;
  /** The customer report of these repayment standings only. */
  standing?: RepaymentStanding[];
}

/** The server names the file ({report}-report-YYYY-MM-DD.ext); this is the name when it does not. */
export const fallbackName = ({ report, format }: ReportDownload, today: string) => `${report}-report-${today}.${format}`;

/** Downloads a report and saves it; `today` (the business day) names it if the server does not. */
export async function downloadReport(input: ReportDownload, today: string): Promise<string> {
  const { blob, filename } = await download('/reports/page', fallbackName(input, today), {
    method: 'POST',
    body: input,
    headers: { Accept: input.format === 'csv' ? 'text/csv' : 'application/pdf' },
  });
  saveBlob(blob, filename);
  return filename;
}

export function useDownloadReport() {
  const today = useBusinessToday();
  return useMutation({
    mutationFn: (input: ReportDownload) => downloadReport(input, today),
    onError: (e) => toast.error(errorMessage(e, DOWNLOAD_FAILED), { title: DOWNLOAD_FAILED }),
  });
}
