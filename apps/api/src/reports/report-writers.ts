import type { ServerResponse as Response } from 'node:http';
import type { Writable } from 'node:stream';
import { FONT, KidogoPdf } from '../common/pdf-document.js';
import type { ReportColumn } from '@kidogo/contracts';
import { PdfPages } from '../common/pdf-table.js';

export type Cell = string | number | null;
export type Row = Record<string, Cell>;

export interface ReportMeta {
  report: string;
  title: string;
  from: string | null;
  to: string | null;
  generated_at: string;
  columns: ReportColumn[];
}

/** A report as it is produced: header first, rows in batches, totals once the rows are done. */
export interface ReportStream {
  meta: ReportMeta;
  batches: AsyncIterable<Row[]>;
  totals: () => Row;
  /** The business time zone: the PDF shows its dates and the time it was generated in it. */
  timeZone: string;
  /** What the figures rest on, known once the first batch is read (the agent report's commission rates, a kept portfolio's time). */
  note?: () => string | null;
}

/**
 * Runs the first query before anything is sent, so a failing report still
 * gets a proper error reply instead of a truncated download.
 */
export async function primed(r: ReportStream): Promise<ReportStream> {
  const it = r.batches[Symbol.asyncIterator]();
  const first = await it.next();
  async function* rest(): AsyncGenerator<Row[]> {
    if (first.done) return;
    yield first.value;
    for (let n = await it.next(); !n.done; n = await it.next()) yield n.value;
  }
  return { ...r, batches: rest() };
}

/**
 * Waits while the client is slower than the database, so a big report never
 * piles up in memory. False once the client has gone: the caller stops
 * reading (leaving the for-await closes the batch generator, so no more queries run).
 */
async function drained(res: Response): Promise<boolean> {
  if (res.writableNeedDrain && !res.destroyed) await firstOf(res, ['drain', 'close']);
  return !res.destroyed;
}

/** The first of these events; every listener is removed again, so a long stream adds none per batch. */
function firstOf(res: Writable, events: string[]): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      for (const e of events) res.off(e, done);
      resolve();
    };
    for (const e of events) res.on(e, done);
  });
}

/** Resolves when the response is fully sent, or the client has gone. */
export const sent = (res: Writable) => (res.writableFinished || res.destroyed ? Promise.resolve() : firstOf(res, ['finish', 'close']));

export async function writeJson(res: Response, r: ReportStream): Promise<void> {
  const { title: _t, ...head } = r.meta;
  const note = r.note ? { note: r.note() } : {};
  res.write(`${JSON.stringify({ ...head, ...note }).slice(0, -1)},"rows":[`);
  let first = true;
  for await (const batch of r.batches) {
    if (!batch.length) continue;
    res.write((first ? '' : ',') + batch.map((row) => JSON.stringify(row)).join(','));
    first = false;
    if (!(await drained(res))) return;
  }
  res.end(`],"totals":${JSON.stringify(r.totals())}}`);
}

const FORMULA_START = /^[=+\-@\t\r]/;

/** RFC 4180 quoting; text cells that a spreadsheet would run as a formula get a leading apostrophe. */
export function csvCell(value: Cell, type: ReportColumn['type'] = 'text'): string {
  if (value === null || value === undefined) return '';
  let s = String(value);
  if (type === 'text' && FORMULA_START.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) || /^\s|\s$/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

const csvLine = (cols: ReportColumn[], row: Row) => `${cols.map((c) => csvCell(row[c.key] ?? null, c.type)).join(',')}\r\n`;

export async function writeCsv(res: Response, r: ReportStream): Promise<void> {
  const cols = r.meta.columns;
  res.write(`${cols.map((c) => csvCell(c.label)).join(',')}\r\n`);
  for await (const batch of r.batches) {
    if (!batch.length) continue;
    res.write(batch.map((row) => csvLine(cols, row)).join(''));
    if (!(await drained(res))) return;
  }
  const totals = r.totals();
  const totalRow: Row = { ...totals, [cols[0].key]: 'Total' };
  res.end(csvLine(cols, totalRow));
}

/** "YYYY-MM-DD HH:MM" of an instant in `zone`, or its first `length` characters. */
export function localTime(zone: string): (iso: string, length: number) => string {
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
  });
  return (iso, length) => {
    const p = Object.fromEntries(format.formatToParts(new Date(iso)).map((x) => [x.type, x.value]));
    return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}`.slice(0, length);
  };
}

/** A date-time in a 'date' column (a customer's creation): shown as the business day it fell on. */
const INSTANT = /^\d{4}-\d{2}-\d{2}T/;

const display = (v: Cell, type: ReportColumn['type'], local: (iso: string, length: number) => string): string => {
  if (v === null || v === undefined) return '';
  if (type === 'date' && typeof v === 'string') return INSTANT.test(v) ? local(v, 10) : v.slice(0, 10);
  if (type === 'money' && typeof v === 'string') return Number(v).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  if (type === 'percent' && typeof v === 'number') return `${v.toLocaleString('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 })}%`;
  return String(v);
};

/**
 * A column's share of the page's width: the characters of its header or of
 * its longest cell in `sample`, whichever is more (money with room for a
 * larger total; text at most 40, so one long note does not squeeze the rest).
 */
function columnWeight(c: ReportColumn, sample: Row[], local: (iso: string, length: number) => string): number {
  let chars = c.label.length;
  for (const row of sample) chars = Math.max(chars, display(row[c.key] ?? null, c.type, local).length + (c.type === 'money' ? 2 : 0));
  return Math.min(Math.max(chars, 5), 40) + 2; // and the cell's padding
}

/**
 * A PDF table: title, period, header row, the rows, a totals row, and a page
 * number on every page. Pages are written out as they fill (no page buffering).
 */
export async function writePdf(res: Response, r: ReportStream): Promise<void> {
  const cols = r.meta.columns;
  const local = localTime(r.timeZone);
  const doc = new KidogoPdf({ size: 'A4', layout: cols.length > 5 ? 'landscape' : 'portrait', margin: 40, bufferPages: false, info: { Title: r.meta.title } });
  doc.pipe(res);
  const pages = new PdfPages(doc);
  // The first batch (read already: see primed) sizes the columns, so that twelve columns of money and shares fit.
  const batches = r.batches[Symbol.asyncIterator]();
  const first = await batches.next();
  const sample = first.done ? [] : first.value;
  const table = pages.table(
    cols.map((c) => ({ label: c.label, weight: columnWeight(c, sample, local), align: c.type === 'text' || c.type === 'date' ? 'left' : 'right' })),
  );
  async function* rows(): AsyncGenerator<Row[]> {
    if (first.done) return;
    yield first.value;
    for (let n = await batches.next(); !n.done; n = await batches.next()) yield n.value;
  }

  doc.font(FONT.bold).fontSize(18).text(r.meta.title, pages.left, doc.page.margins.top);
  const period = r.meta.from || r.meta.to ? `Period: ${r.meta.from ?? 'the beginning'} to ${r.meta.to ?? 'today'}` : 'Period: all time';
  doc.font(FONT.regular).fontSize(10).fillColor('#444444').text(period).text(`Generated ${local(r.meta.generated_at, 16)} (${r.timeZone})`);
  const note = r.note?.();
  if (note) doc.text(note);
  doc.fillColor('#000000');
  pages.y = doc.y + 12;
  table.header();
  let count = 0;
  for await (const batch of rows()) {
    for (const row of batch) {
      table.row(cols.map((c) => display(row[c.key] ?? null, c.type, local)));
      count++;
    }
    if (!(await drained(res))) break;
  }
  if (!count) table.empty('No data for this period.');
  const totals = r.totals();
  table.total(cols.map((c, i) => (i === 0 ? 'Total' : display(totals[c.key] ?? null, c.type, local))));
  pages.finish();
  const finished = sent(res);
  doc.end();
  await finished;
}
