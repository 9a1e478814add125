import { vi } from 'vitest';

/**
 * Stands in for the browser's file saving (saveBlob): blob URLs are fake and
 * a click on the download link records the file name instead of navigating.
 * Answers the names saved, in order.
 */
export function captureDownloads(): string[] {
  URL.createObjectURL = vi.fn(() => 'blob:download');
  URL.revokeObjectURL = vi.fn();
  const names: string[] = [];
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    names.push(this.download);
  });
  return names;
}
