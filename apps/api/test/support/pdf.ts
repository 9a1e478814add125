import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Response, Test } from 'supertest';

type Parser = Parameters<Test['parse']>[0];

/** supertest parser that keeps the body as raw bytes (PDF, CSV downloads); the response it gets is the raw stream. */
export const binaryParser = ((res: NodeJS.ReadableStream, cb: (err: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(Buffer.from(c)));
  res.on('end', () => cb(null, Buffer.concat(chunks)));
  res.on('error', (e: Error) => cb(e, Buffer.alloc(0)));
}) as unknown as Parser;

export const bodyBytes = (res: Response) => res.body as Buffer;

const hasPdftotext = spawnSync('pdftotext', ['-v']).error === undefined;

/**
 * The text of a PDF as poppler's pdftotext reads it, or null (with a warning)
 * when pdftotext is not installed; REQUIRE_PDFTOTEXT=1 (CI) makes that a failure.
 */
export function pdfText(pdf: Buffer): string | null {
  if (!hasPdftotext) {
    if (process.env.REQUIRE_PDFTOTEXT === '1') throw new Error('pdftotext is required (apt-get install -y poppler-utils)');
    console.warn('SKIPPED reading the PDF back: pdftotext is not installed (apt-get install -y poppler-utils)');
    return null;
  }
  const dir = mkdtempSync(join(tmpdir(), 'kidogo-pdf-'));
  try {
    const file = join(dir, 'doc.pdf');
    writeFileSync(file, pdf);
    return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
