import { once } from 'node:events';
import type { ServerResponse } from 'node:http';

/**
 * CSV cells as spreadsheets read them back: quoted when they hold a comma,
 * quote, semicolon or line break, quotes doubled. A cell that a spreadsheet
 * would run as a formula (it starts with =, +, -, @, tab or carriage return)
 * gets a leading apostrophe, unless it is only a number or a phone number
 * like "+254712345678" or "-12.50", which cannot carry a formula. The
 * importers remove that apostrophe again (see stripFormulaGuard), so an
 * export imports back unchanged.
 */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  let s = value instanceof Date ? value.toISOString() : String(value);
  if (/^[=+\-@\t\r]/.test(s) && !/^[+-]?[\d\s.]*\d$/.test(s)) s = `'${s}`;
  return /[",;\r\n]/.test(s) || /^\s|\s$/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export const csvLine = (values: readonly unknown[]): string => `${values.map(csvCell).join(',')}\r\n`;

/** The inverse of the apostrophe csvCell adds in front of formula-like text. */
export const stripFormulaGuard = (s: string): string => (/^'[=+\-@\t\r]/.test(s) ? s.slice(1) : s);

/** UTF-8 byte order mark: Excel opens a UTF-8 CSV with non-ASCII names correctly only with it. */
export const UTF8_BOM = '\uFEFF';

/** Writes to a download with backpressure (each write waits for the client to take the last); `gone` once the client left. */
function csvWriter(res: ServerResponse) {
  const gone = () => res.destroyed || res.writableEnded;
  const write = async (chunk: string) => {
    if (res.write(chunk)) return;
    const ac = new AbortController();
    await Promise.race([once(res, 'drain', { signal: ac.signal }), once(res, 'close', { signal: ac.signal })]).finally(() => ac.abort());
  };
  return { gone, write };
}

/**
 * Streams a CSV download: the header, then the batches `read` gives (each
 * from after the last row of the one before, until one comes back shorter
 * than `batchSize`), written as they come. The next batch is read while the
 * current one is written, and each write waits for the client to take the
 * last (backpressure), so the size of the list does not matter. Stops when
 * the client goes; `complete` says whether every row was sent.
 */
export async function streamCsv<T>(
  res: ServerResponse,
  header: readonly string[],
  batchSize: number,
  read: (after: T | null) => Promise<T[]>,
  line: (row: T) => readonly unknown[],
): Promise<{ count: number; complete: boolean }> {
  const { gone, write } = csvWriter(res);
  await write(UTF8_BOM + csvLine(header));
  let count = 0;
  let next = read(null);
  for (;;) {
    const rows = await next;
    next = rows.length === batchSize ? read(rows[rows.length - 1]!) : Promise.resolve([]);
    if (!rows.length || gone()) break;
    let chunk = '';
    for (const row of rows) chunk += csvLine(line(row));
    await write(chunk);
    count += rows.length;
  }
  await next.catch(() => undefined);
  const complete = !gone();
  res.end();
  return { count, complete };
}

/**
 * streamCsv for a list whose keys are cheap to read and whose rows are not
 * (a lookup or five a row): each batch's keys are read one after another
 * (`keys`, from after the last key of the batch before, until a batch comes
 * back shorter than `batchSize`), and the rows of up to `depth` batches are
 * read at once (`rows`, each on its own pooled connection, so PostgreSQL
 * reads them on as many cores), then written in order. Stops when the client
 * goes; `complete` says whether every row was sent.
 */
export async function streamCsvByKeys<K, T>(
  res: ServerResponse,
  header: readonly string[],
  batch: { size: number; depth: number },
  keys: (after: K | null) => Promise<K[]>,
  rows: (keys: K[]) => Promise<T[]>,
  line: (row: T) => readonly unknown[],
): Promise<{ count: number; complete: boolean }> {
  const { gone, write } = csvWriter(res);
  await write(UTF8_BOM + csvLine(header));
  let count = 0;
  let after: K | null = null;
  let more = true;
  const reading: Promise<T[]>[] = [];
  try {
    for (;;) {
      while (more && reading.length < batch.depth) {
        const next = await keys(after);
        more = next.length === batch.size;
        if (!next.length) break;
        after = next[next.length - 1]!;
        const read = rows(next);
        // Awaited in its turn below; until then a failure must not go unhandled.
        read.catch(() => undefined);
        reading.push(read);
      }
      const read = reading.shift();
      if (!read || gone()) break;
      const found = await read;
      let chunk = '';
      for (const row of found) chunk += csvLine(line(row));
      await write(chunk);
      count += found.length;
    }
  } finally {
    await Promise.allSettled(reading);
  }
  const complete = !gone();
  res.end();
  return { count, complete };
}
