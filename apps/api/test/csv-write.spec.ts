import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from '@jest/globals';
import { streamCsvByKeys } from '../src/catalog/csv-write.js';

// streamCsvByKeys: keys read one batch after another, the rows of several
// batches read at once, written in the keys' order whatever order they come in.

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('streamCsvByKeys', () => {
  // Every server a test started, some tests download more than once.
  const servers: Server[] = [];
  afterEach(() =>
    Promise.all(
      servers.splice(0).map(
        (server) =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      ),
    ),
  );

  /** A download served by streamCsvByKeys over `total` keys, read whole by a client. */
  async function download(total: number, size: number, depth: number, fail?: number) {
    let inFlight = 0;
    let most = 0;
    const calls: number[] = [];
    let result: { count: number; complete: boolean } | null = null;
    let error: unknown = null;
    const server = createServer((_req, res) => {
      const keys = async (after: number | null) => {
        const from = after === null ? 0 : after + 1;
        return Array.from({ length: Math.max(0, Math.min(size, total - from)) }, (_, i) => from + i);
      };
      const rows = async (batch: number[]) => {
        calls.push(batch[0]!);
        inFlight++;
        most = Math.max(most, inFlight);
        // Later batches answer sooner: the order written must still be the keys'.
        await sleep(batch[0] === 0 ? 30 : Math.max(1, 20 - batch[0]! / size));
        inFlight--;
        if (fail !== undefined && batch.includes(fail)) throw new Error(`no row ${fail}`);
        return batch.map((k) => ({ k, name: `row ${k}` }));
      };
      streamCsvByKeys(res, ['k', 'name'], { size, depth }, keys, rows, (r) => [r.k, r.name]).then(
        (r) => (result = r),
        (e) => {
          error = e;
          res.destroy();
        },
      );
    });
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    let text = '';
    try {
      text = await (await fetch(`http://127.0.0.1:${port}/`)).text();
    } catch {
      // The server broke the download off.
    }
    await sleep(50);
    return { text, most, calls, result, error };
  }

  it('writes every row once, in order, with up to `depth` batches read at once', async () => {
    const { text, most, calls, result } = await download(2_345, 100, 3);
    const lines = text.replace(/^\uFEFF/, '').trimEnd().split('\r\n');
    expect(lines[0]).toBe('k,name');
    expect(lines.slice(1)).toEqual(Array.from({ length: 2_345 }, (_, k) => `${k},row ${k}`));
    expect(result).toEqual({ count: 2_345, complete: true });
    expect(calls).toHaveLength(24);
    expect(most).toBe(3);
  });

  it('ends with the header alone when there is nothing, and after an exact number of full batches', async () => {
    expect((await download(0, 100, 2)).result).toEqual({ count: 0, complete: true });
    const full = await download(300, 100, 2);
    expect(full.result).toEqual({ count: 300, complete: true });
    expect(full.calls).toEqual([0, 100, 200]);
  });

  it('fails the download when a batch cannot be read, leaving nothing unhandled', async () => {
    const broken = await download(1_000, 100, 2, 450);
    expect(String(broken.error)).toContain('no row 450');
    expect(broken.text.split('\r\n').length).toBeLessThan(1_000);
  });
});
