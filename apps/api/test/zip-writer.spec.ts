import { describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { ZipWriter, crc32, tableCrc32 } from '../src/common/zip-writer.js';
import { unzip } from './support/zip.js';

/** A client that takes 16 KB at a time and is slow to ask for more: the writer must wait for it. */
function slowClient() {
  const chunks: Buffer[] = [];
  let most = 0;
  const out = new Writable({
    highWaterMark: 16 * 1024,
    write(chunk: Buffer, _e, cb) {
      chunks.push(chunk);
      most = Math.max(most, out.writableLength);
      setImmediate(cb);
    },
  });
  return { out, bytes: () => Buffer.concat(chunks), most: () => most };
}

describe('the ZIP writer', () => {
  it('computes the CRC-32 that ZIP uses', () => {
    for (const f of [crc32, tableCrc32]) {
      expect(f(Buffer.from('123456789'))).toBe(0xcbf43926);
      expect(f(Buffer.alloc(0))).toBe(0);
    }
    const random = randomBytes(100_003);
    expect(tableCrc32(random)).toBe(crc32(random));
  });

  it('writes an archive another unzip reads back byte for byte: text deflated, files stored, UTF-8 names', async () => {
    const photo = randomBytes(300_000);
    const text = Buffer.from(JSON.stringify({ payments: Array.from({ length: 500 }, (_, i) => ({ i, amount: '100.00' })) }));
    const client = slowClient();
    const zip = new ZipWriter(client.out, new Date(2026, 11, 5, 9, 30, 14));
    expect(await zip.add('personal-data.json', text, { compress: true })).toBe(true);
    expect(await zip.add('documents/7-photo-Ŵiza Banda.jpg', photo)).toBe(true);
    expect(await zip.add('documents/8-photo-back.jpg', photo)).toBe(true);
    expect(await zip.add('empty.txt', Buffer.alloc(0), { compress: true })).toBe(true);
    await zip.finish();
    const bytes = client.bytes();

    const entries = await unzip(bytes);
    expect([...entries.keys()]).toEqual(['personal-data.json', 'documents/7-photo-Ŵiza Banda.jpg', 'documents/8-photo-back.jpg', 'empty.txt']);
    expect(entries.get('personal-data.json')).toEqual({ data: text, method: 8 });
    expect(entries.get('documents/7-photo-Ŵiza Banda.jpg')).toEqual({ data: photo, method: 0 });
    expect(entries.get('empty.txt')!.data.length).toBe(0);
    expect(entries.get('documents/8-photo-back.jpg')!.data).toEqual(photo);
    // The writer waited for the client to take one photo before it wrote the next: never both in the stream's buffer.
    expect(client.most()).toBeLessThan(2 * photo.length);

    // Info-ZIP's own test of the archive, where it is installed.
    if (spawnSync('unzip', ['-v']).error === undefined) {
      const dir = mkdtempSync(join(tmpdir(), 'kidogo-zip-'));
      try {
        writeFileSync(join(dir, 'a.zip'), bytes);
        expect(execFileSync('unzip', ['-t', join(dir, 'a.zip')], { encoding: 'utf8' })).toContain('No errors detected');
        expect(execFileSync('unzip', ['-l', join(dir, 'a.zip')], { encoding: 'utf8' })).toMatch(/2026-12-05 09:30\s+documents\/7-photo-Ŵiza Banda\.jpg/);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
  });

  it('stops adding once the client has gone', async () => {
    const client = slowClient();
    const zip = new ZipWriter(client.out);
    expect(await zip.add('a.bin', randomBytes(1000))).toBe(true);
    client.out.destroy();
    expect(await zip.add('b.bin', randomBytes(100_000))).toBe(false);
    await zip.finish();
  });
});
