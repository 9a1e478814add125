import { vi } from 'vitest';

/**
 * Stands in for XMLHttpRequest, which uploads go through (fetch cannot report
 * upload progress): each upload reports 50% sent, then is answered with
 * `status` and `body` as JSON after `delayMs`. Answers the bodies sent.
 */
export function stubXhrUpload({ status = 200, body, delayMs = 50 }: { status?: number; body: unknown; delayMs?: number }, sent: FormData[] = []): FormData[] {
  class FakeXhr {
    upload: { onprogress: ((e: ProgressEvent) => void) | null } = { onprogress: null };
    status = 0;
    statusText = '';
    responseText = '';
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    onabort: (() => void) | null = null;
    open() {}
    setRequestHeader() {}
    getAllResponseHeaders() {
      return 'content-type: application/json\r\n';
    }
    abort() {}
    send(form: FormData) {
      sent.push(form);
      this.upload.onprogress?.({ loaded: 50, total: 100, lengthComputable: true } as ProgressEvent);
      setTimeout(() => {
        this.status = status;
        this.responseText = JSON.stringify(body);
        this.onload?.();
      }, delayMs);
    }
  }
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  return sent;
}
