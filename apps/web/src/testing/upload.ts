import { vi } from 'vitest';

export interface UploadReply {
  status?: number;
  body: unknown;
  delayMs?: number;
}

export interface RecordedUpload {
  url: string;
  form: FormData;
}

/**
 * Stands in for XMLHttpRequest, which uploads go through (fetch cannot report
 * upload progress): each upload reports 50% sent, then is answered with what
 * `answer` gives for its URL (`status` and `body` as JSON, after `delayMs`).
 * Answers the uploads sent, with their URLs, in order.
 */
export function stubXhrUploads(answer: (url: string) => UploadReply, sent: RecordedUpload[] = []): RecordedUpload[] {
  stubXhr(answer, (upload) => sent.push(upload));
  return sent;
}

/** stubXhrUploads with one answer for every upload; answers the bodies sent. */
export function stubXhrUpload(reply: UploadReply, sent: FormData[] = []): FormData[] {
  stubXhr(() => reply, (upload) => sent.push(upload.form));
  return sent;
}

function stubXhr(answer: (url: string) => UploadReply, record: (upload: RecordedUpload) => void) {
  class FakeXhr {
    upload: { onprogress: ((e: ProgressEvent) => void) | null } = { onprogress: null };
    status = 0;
    statusText = '';
    responseText = '';
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    onabort: (() => void) | null = null;
    private url = '';
    open(_method: string, url: string) {
      this.url = url;
    }
    setRequestHeader() {}
    getAllResponseHeaders() {
      return 'content-type: application/json\r\n';
    }
    abort() {}
    send(form: FormData) {
      record({ url: this.url, form });
      const { status = 200, body, delayMs = 50 } = answer(this.url);
      this.upload.onprogress?.({ loaded: 50, total: 100, lengthComputable: true } as ProgressEvent);
      setTimeout(() => {
        this.status = status;
        this.responseText = JSON.stringify(body);
        this.onload?.();
      }, delayMs);
    }
  }
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
}
