import type { StatementImportReply } from '@kidogo/contracts';
import { vi } from 'vitest';

export function buildStatementReply(overrides: Partial<StatementImportReply> = {}): StatementImportReply {
  return {
    imported: 2,
    skipped: 3,
    errors: [{ row: 7, field: 'Paid In', message: 'No Paid In amount in row' }],
    applied: 1,
    held: [{ row: 3, payment_id: 41, transaction_code: 'TK12AB34CD', amount: '250.00', reason: 'No single device matches the account reference UNKNOWN-REF' }],
    duplicates: 1,
    not_received: 2,
    ...overrides,
  };
}

/**
 * Uploads go through XMLHttpRequest (for progress), which jsdom cannot send:
 * this stand-in reports half the file sent, then answers `status` with `body`
 * after `delayMs`. `sent` holds every request's URL and multipart body.
 */
export function mockStatementUpload(reply: () => { status: number; body: unknown }, delayMs = 300) {
  const sent: { url: string; body: FormData }[] = [];
  class FakeXhr {
    upload: { onprogress: ((e: ProgressEvent) => void) | null } = { onprogress: null };
    status = 0;
    statusText = '';
    responseText = '';
    url = '';
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    onabort: (() => void) | null = null;
    open(_method: string, url: string) {
      this.url = url;
    }
    setRequestHeader() {}
    getAllResponseHeaders() {
      return 'content-type: application/json\r\n';
    }
    abort() {
      this.onabort?.();
    }
    send(body: FormData) {
      sent.push({ url: this.url, body });
      this.upload.onprogress?.({ loaded: 50, total: 100, lengthComputable: true } as ProgressEvent);
      setTimeout(() => {
        const { status, body: answer } = reply();
        this.status = status;
        this.responseText = JSON.stringify(answer);
        this.onload?.();
      }, delayMs);
    }
  }
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  return { sent };
}
