import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { Transform } from 'node:stream';
import { parse, type Options as CsvOptions } from 'csv-parse';
import type { ZodType } from 'zod';
import type { CsvImportReport, CsvRowError } from '@kidogo/contracts';
import { Errors } from '../common/errors.js';
import { assertCleanInput, fieldErrorsOf, ValidationFailed } from '../common/validation.js';
import { stripFormulaGuard } from './csv-write.js';

export const IMPORT_BATCH_SIZE = 1000;
export const MAX_LISTED_ERRORS = 1000;

export interface CsvImportSpec<Row> {
  /** The multipart field, named in 400 replies. */
  field: string;
  /** Columns that must be in the header. */
  required: readonly string[];
  /** Columns read from each row; any other column is ignored. */
  columns: readonly string[];
  /** Validates and normalises one row (an object of the known columns that are present). */
  schema: ZodType<Row>;
  /**
   * Inserts a batch of valid rows, skipping those that already exist; returns how many were inserted, or with the
   * rows it refused itself (a check that needs the database: each its own error, not counted as already there).
   * `rowNumbers[i]` is the data row number of `rows[i]`.
   */
  insertBatch: (rows: Row[], rowNumbers: number[]) => Promise<number | { inserted: number; errors: CsvRowError[] }>;
  /** Rows written per insertBatch call (IMPORT_BATCH_SIZE by default). */
  batchSize?: number;
}

export type CsvImportOutcome = Omit<CsvImportReport, 'job_id'>;

/** "Customer Name", "customer-name", " CUSTOMER_NAME " → "customer_name". */
export const headerKey = (h: string) =>
  h
    .replace(/^\uFEFF/, '')
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');

interface ParsedRecord {
  record: string[];
  row: number;
}

interface Sniffed {
  encoding: 'utf8' | 'windows-1252';
  delimiter: string;
}

/**
 * Windows-1252's bytes 0x80-0x9F (the rest of it is Latin-1): curly quotes,
 * the euro sign, dashes. Node's TextDecoder reads that label as Latin-1 and
 * turns them into invisible control characters. The five bytes it leaves
 * undefined stay as they are.
 */
const CP1252_80_9F =
  '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f' +
  '\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';

export const decodeWindows1252 = (bytes: Buffer): string =>
  bytes.toString('latin1').replace(/[\x80-\x9f]/g, (c) => CP1252_80_9F[c.charCodeAt(0) - 0x80]!);

/** Whether the whole file is UTF-8: a Windows-1252 letter in its last row decides as much as one in its first. */
async function isUtf8(path: string): Promise<boolean> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  try {
    for await (const chunk of createReadStream(path)) decoder.decode(chunk as Buffer, { stream: true });
    decoder.decode();
    return true;
  } catch {
    return false;
  }
}

/** The file's bytes as text, in its encoding; a UTF-8 character split across two reads is put back together. */
function decodeStream(encoding: Sniffed['encoding']): Transform {
  const utf8 = new TextDecoder('utf-8');
  return new Transform({
    readableObjectMode: true,
    transform(chunk: Buffer, _enc, done) {
      done(null, encoding === 'utf8' ? utf8.decode(chunk, { stream: true }) : decodeWindows1252(chunk));
    },
    flush(done) {
      const rest = encoding === 'utf8' ? utf8.decode() : '';
      done(null, rest || undefined);
    },
  });
}

/**
 * Looks at the start of the file: refuses an empty or binary file (a
 * spreadsheet saved as .xlsx, an image) before anything is imported, picks
 * the encoding (UTF-8, or Windows-1252 as older Excel writes it) and the
 * delimiter of the header line (comma, semicolon or tab).
 */
async function sniff(path: string, field: string): Promise<Sniffed> {
  const fh = await open(path, 'r');
  let sample: Buffer;
  try {
    const buf = Buffer.alloc(64 * 1024);
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    sample = buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
  let start = 0;
  if (sample[0] === 0xef && sample[1] === 0xbb && sample[2] === 0xbf) start = 3;
  const body = sample.subarray(start);
  if (body.toString('latin1').trim() === '') throw Errors.badRequest(field, 'the file is empty');
  if (body.includes(0) || (body[0] === 0x50 && body[1] === 0x4b)) {
    throw Errors.badRequest(field, 'is not a CSV file (save the spreadsheet as CSV, comma separated)');
  }
  const encoding: Sniffed['encoding'] = (await isUtf8(path)) ? 'utf8' : 'windows-1252';
  const firstLine = body.toString('latin1').split(/\r?\n/, 1)[0] ?? '';
  const outsideQuotes = firstLine.replace(/"[^"]*"/g, '');
  const counts = [',', ';', '\t'].map((d) => [d, outsideQuotes.split(d).length - 1] as const);
  const [delimiter, n] = counts.reduce((a, b) => (b[1] > a[1] ? b : a));
  return { encoding, delimiter: n > 0 ? delimiter : ',' };
}

/**
 * Streams a CSV file through a row schema into batched inserts: memory stays
 * flat whatever the file size. The header is checked before any row is
 * imported (a missing required column is a 400 and nothing is imported);
 * after that each row is imported or reported, never the whole file refused.
 * Rows that cannot even be read (a quote never closed, more values than
 * columns) are reported like invalid ones.
 */
export async function importCsv<Row>(path: string, spec: CsvImportSpec<Row>): Promise<CsvImportOutcome> {
  const started = Date.now();
  const { encoding, delimiter } = await sniff(path, spec.field);

  let skippedUnreadable = 0;
  const options: CsvOptions<ParsedRecord, string[]> = {
    bom: true,
    delimiter,
    relax_quotes: true,
    relax_column_count: true,
    skip_empty_lines: true,
    skip_records_with_error: true,
    // The data row number (1-based, header excluded) is fixed here, in parse order.
    on_record: (record, ctx) => ({ record, row: ctx.records + skippedUnreadable - 1 }),
  };
  const parser = createReadStream(path).pipe(decodeStream(encoding)).pipe(parse(options as unknown as CsvOptions));

  const errors: CsvRowError[] = [];
  let errorCount = 0;
  const report = (e: CsvRowError) => {
    errorCount++;
    if (errors.length < MAX_LISTED_ERRORS) errors.push(e);
  };
  const unreadable = new Set<number>();
  parser.on('skip', (err: Error & { records?: number }) => {
    skippedUnreadable++;
    const row = (err.records ?? 0) + skippedUnreadable - 1;
    unreadable.add(row);
    report({ row, field: '', message: `could not be read as CSV: ${err.message}` });
  });

  let header: string[] | null = null;
  let rows = 0;
  let imported = 0;
  let duplicates = 0;
  let batch: Row[] = [];
  let batchRows: number[] = [];
  // One batch is written while the next is parsed and validated: the
  // statements still run one after the other, but parsing (about as long as
  // writing for customers) no longer waits for them.
  let writing: Promise<void> = Promise.resolve();
  const flush = async () => {
    if (!batch.length) return;
    const [rows, numbers] = [batch, batchRows];
    [batch, batchRows] = [[], []];
    await writing;
    writing = spec.insertBatch(rows, numbers).then((outcome) => {
      const { inserted, errors: refused } = typeof outcome === 'number' ? { inserted: outcome, errors: [] } : outcome;
      for (const e of refused) report(e);
      imported += inserted;
      duplicates += rows.length - inserted - new Set(refused.map((e) => e.row)).size;
    });
  };

  try {
    for await (const { record, row } of parser as AsyncIterable<ParsedRecord>) {
      if (!header) {
        header = record.map(headerKey);
        const missing = spec.required.filter((c) => !header!.includes(c));
        if (missing.length) {
          throw Errors.badRequest(
            spec.field,
            `missing required column${missing.length > 1 ? 's' : ''} ${missing.join(', ')} (the first line must name the columns, e.g. ${spec.required.join(',')})`,
          );
        }
        continue;
      }
      rows++;
      const extra = record.slice(header.length).filter((v) => v.trim() !== '');
      if (extra.length) {
        report({
          row,
          field: '',
          message: `has ${record.length} values but the header has ${header.length} columns (quote values that contain the delimiter)`,
        });
        continue;
      }
      const obj: Record<string, string> = {};
      header.forEach((col, i) => {
        if (spec.columns.includes(col) && i < record.length) obj[col] = stripFormulaGuard(record[i]);
      });
      // The sniff looks at the first 64 kB only: a NUL further down is this row's error, not the database's.
      try {
        assertCleanInput(obj, '');
      } catch (e) {
        if (!(e instanceof ValidationFailed)) throw e;
        for (const f of e.fieldErrors) report({ row, ...f });
        continue;
      }
      const parsed = spec.schema.safeParse(obj);
      if (!parsed.success) {
        for (const e of fieldErrorsOf(parsed.error)) report({ row, ...e });
        continue;
      }
      batch.push(parsed.data);
      batchRows.push(row);
      if (batch.length >= (spec.batchSize ?? IMPORT_BATCH_SIZE)) await flush();
    }
    await flush();
    await writing;
  } finally {
    parser.destroy();
    await writing.catch(() => undefined);
  }
  if (!header) throw Errors.badRequest(spec.field, 'the file is empty');
  if (rows === 0 && unreadable.size === 0) throw Errors.badRequest(spec.field, 'the file has a header but no data rows');

  rows += unreadable.size;
  errors.sort((a, b) => a.row - b.row);
  return {
    rows,
    imported,
    skipped: rows - imported,
    duplicates,
    errors,
    more_errors: errorCount - errors.length,
    duration_ms: Date.now() - started,
  };
}
