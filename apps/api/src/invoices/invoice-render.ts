import type { Writable } from 'node:stream';
import { FONT, KidogoPdf } from '../common/pdf-document.js';
import type { Invoice } from '@kidogo/contracts';
import { sent } from '../reports/report-writers.js';

export interface RenderContext {
  invoice: Invoice;
  issuerName: string;
  issuerDetails: string | null;
  billingName: string;
  billingDetails: string | null;
  /** The business day (TIME_ZONE) of an instant, YYYY-MM-DD: the day an invoice was issued or paid on. */
  dayOf: (instant: string) => string;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (s: string | number | null | undefined) => String(s ?? '').replace(/[&<>"']/g, (c) => ESCAPES[c]);

const amount = (s: string) => Number(s).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
/** A due date (a calendar date already). */
const day = (s: string | null) => (s ? s.slice(0, 10) : '-');
const STATUS_LABEL = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** Every placeholder's value, already escaped; {{line_items}} is rows of escaped cells. */
function placeholders(c: RenderContext): Record<string, string> {
  const i = c.invoice;
  const rows = i.line_items
    .map(
      (l) =>
        `<tr><td>${escapeHtml(l.description)}</td><td class="num">${escapeHtml(l.quantity)}</td>` +
        `<td class="num">${escapeHtml(amount(l.unit_price))}</td><td class="num">${escapeHtml(amount(l.total_amount))}</td></tr>`,
    )
    .join('');
  const values: Record<string, string | null> = {
    invoice_number: i.invoice_number,
    invoice_id: i.invoice_id,
    organization_id: i.organization_id,
    organization_name: c.billingName,
    billing_details: c.billingDetails,
    customer_name: i.customer_name,
    customer_email: i.customer_email,
    customer_phone: i.customer_phone,
    description: i.description,
    subtotal: amount(i.subtotal),
    tax_rate: String(i.tax_rate),
    tax_amount: amount(i.tax_amount),
    amount: amount(i.amount),
    currency: i.currency,
    status: STATUS_LABEL(i.status),
    due_date: day(i.due_date),
    created_at: c.dayOf(i.created_at),
    paid_at: i.paid_at ? c.dayOf(i.paid_at) : '',
    issuer_name: c.issuerName,
    issuer_details: c.issuerDetails,
  };
  const out: Record<string, string> = { line_items: rows };
  for (const [k, v] of Object.entries(values)) out[k] = escapeHtml(v).replace(/\n/g, '<br>');
  return out;
}

/** The super admin's template with {{placeholders}} filled; unknown placeholders become empty. */
export function fillTemplate(template: string, c: RenderContext): string {
  const values = placeholders(c);
  return template.replace(/\{\{\s*([a-z_]+)\s*\}\}/g, (_, key: string) => values[key] ?? '');
}

const BUILT_IN = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Invoice {{invoice_number}}</title>
<style>
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:#1f2933;margin:40px auto;max-width:760px}
h1{font-size:28px;margin:0}.muted{color:#616e7c}.row{display:flex;justify-content:space-between;gap:24px;margin:24px 0}
table{width:100%;border-collapse:collapse;margin-top:16px}th,td{padding:8px;border-bottom:1px solid #e4e7eb;text-align:left}
th{background:#f5f7fa}.num{text-align:right}.totals td{border:none}.total td{font-weight:700;font-size:16px}
.status{display:inline-block;padding:2px 10px;border-radius:12px;background:#e4e7eb;font-size:13px}
</style></head><body>
<div class="row"><div><h1>Invoice</h1><div class="muted">{{invoice_number}}</div></div>
<div><strong>{{issuer_name}}</strong><div class="muted">{{issuer_details}}</div></div></div>
<div class="row"><div><div class="muted">Billed to</div><strong>{{organization_name}}</strong><div class="muted">{{organization_id}}</div>
<div class="muted">{{billing_details}}</div><div>{{customer_name}}</div><div class="muted">{{customer_email}}</div></div>
<div><div>Issued: {{created_at}}</div><div>Due: {{due_date}}</div><div>Status: <span class="status">{{status}}</span></div></div></div>
<p>{{description}}</p>
<table><thead><tr><th>Description</th><th class="num">Quantity</th><th class="num">Unit price</th><th class="num">Total</th></tr></thead>
<tbody>{{line_items}}</tbody></table>
<table class="totals"><tr><td class="num">Subtotal</td><td class="num">{{subtotal}} {{currency}}</td></tr>
<tr><td class="num">Tax ({{tax_rate}}%)</td><td class="num">{{tax_amount}} {{currency}}</td></tr>
<tr class="total"><td class="num">Total</td><td class="num">{{amount}} {{currency}}</td></tr></table>
</body></html>`;

export function renderInvoiceHtml(c: RenderContext, template: string | null): string {
  return fillTemplate(template?.trim() ? template : BUILT_IN, c);
}

/** A one-or-more page A4 invoice, streamed to the response. */
/** The email an invoice's PDF is attached to: who it is from, what is due and by when, and `message` first. */
export function invoiceEmail(c: RenderContext, message: string | undefined): { subject: string; text: string } {
  const i = c.invoice;
  const total = `${i.currency} ${amount(i.amount)}`;
  const state =
    i.status === 'paid'
      ? `It is paid${i.paid_at ? ` (${c.dayOf(i.paid_at)})` : ''}: thank you.`
      : i.due_date
        ? `Please pay ${total} by ${day(i.due_date)}${i.status === 'overdue' ? ', which has passed' : ''}.`
        : `Please pay ${total} on receipt.`;
  const lines = [
    `Hello ${i.customer_name || c.billingName},`,
    '',
    ...(message ? [message, ''] : []),
    `Invoice ${i.invoice_number} from ${c.issuerName}, for ${total}, is attached as a PDF.`,
    ...(i.description ? ['', i.description] : []),
    '',
    state,
    '',
    c.issuerName,
    ...(c.issuerDetails ? [c.issuerDetails] : []),
  ];
  return { subject: `Invoice ${i.invoice_number} from ${c.issuerName}`, text: lines.join('\n') };
}

export async function writeInvoicePdf(res: Writable, c: RenderContext): Promise<void> {
  const i = c.invoice;
  const doc = new KidogoPdf({ size: 'A4', margin: 50, info: { Title: `Invoice ${i.invoice_number}` } });
  doc.pipe(res);
  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;
  const top = doc.page.margins.top;

  doc.font(FONT.bold).fontSize(24).text('INVOICE', left, top);
  doc.font(FONT.regular).fontSize(11).fillColor('#555555').text(i.invoice_number);
  doc.fillColor('#000000').font(FONT.bold).fontSize(11).text(c.issuerName, left + width / 2, top, { width: width / 2, align: 'right' });
  if (c.issuerDetails) doc.font(FONT.regular).fontSize(9).text(c.issuerDetails, { width: width / 2, align: 'right' });

  let y = Math.max(doc.y, top + 60) + 20;
  doc.font(FONT.regular).fontSize(9).fillColor('#555555').text('BILLED TO', left, y);
  doc.fillColor('#000000').font(FONT.bold).fontSize(11).text(c.billingName, left, doc.y, { width: width / 2 });
  doc.font(FONT.regular).fontSize(9).text(`Organization: ${i.organization_id}`, { width: width / 2 });
  if (c.billingDetails) doc.text(c.billingDetails, { width: width / 2 });
  if (i.customer_name && i.customer_name !== c.billingName) doc.text(i.customer_name, { width: width / 2 });
  if (i.customer_email) doc.text(i.customer_email, { width: width / 2 });
  if (i.customer_phone) doc.text(i.customer_phone, { width: width / 2 });
  const leftEnd = doc.y;

  const facts: [string, string][] = [
    ['Invoice number', i.invoice_number],
    ['Issue date', c.dayOf(i.created_at)],
    ['Due date', day(i.due_date)],
    ['Status', STATUS_LABEL(i.status)],
    ['Currency', i.currency],
  ];
  if (i.paid_at) facts.push(['Paid on', c.dayOf(i.paid_at)]);
  let fy = y;
  for (const [k, v] of facts) {
    doc.font(FONT.regular).fontSize(9).fillColor('#555555').text(k, left + width / 2, fy, { width: width / 4 });
    doc.fillColor('#000000').font(FONT.bold).text(v, left + (3 * width) / 4, fy, { width: width / 4, align: 'right' });
    fy += 14;
  }
  y = Math.max(leftEnd, fy) + 16;
  if (i.description) {
    doc.font(FONT.regular).fontSize(10).text(i.description, left, y, { width });
    y = doc.y + 10;
  }

  const cols = [
    { label: 'Description', w: width * 0.5, align: 'left' as const },
    { label: 'Quantity', w: width * 0.14, align: 'right' as const },
    { label: 'Unit price', w: width * 0.18, align: 'right' as const },
    { label: 'Total', w: width * 0.18, align: 'right' as const },
  ];
  const row = (cells: string[], bold: boolean, shade = false) => {
    const heights = cells.map((t, k) => doc.font(bold ? FONT.bold : FONT.regular).fontSize(10).heightOfString(t, { width: cols[k].w - 8 }));
    const h = Math.max(...heights) + 8;
    if (y + h > doc.page.height - doc.page.margins.bottom - 80) {
      doc.addPage();
      y = doc.page.margins.top;
    }
    if (shade) doc.rect(left, y, width, h).fill('#eef2f7').fillColor('#000000');
    let x = left;
    cells.forEach((t, k) => {
      doc.font(bold ? FONT.bold : FONT.regular).fontSize(10).text(t, x + 4, y + 4, { width: cols[k].w - 8, align: cols[k].align });
      x += cols[k].w;
    });
    y += h;
    doc.moveTo(left, y).lineTo(left + width, y).strokeColor('#d9dee4').lineWidth(0.5).stroke();
  };
  row(cols.map((c2) => c2.label), true, true);
  for (const l of i.line_items) row([l.description, String(l.quantity), amount(l.unit_price), amount(l.total_amount)], false);

  y += 10;
  const totals: [string, string, boolean][] = [
    ['Subtotal', `${amount(i.subtotal)} ${i.currency}`, false],
    [`Tax (${i.tax_rate}%)`, `${amount(i.tax_amount)} ${i.currency}`, false],
    ['Total', `${amount(i.amount)} ${i.currency}`, true],
  ];
  for (const [k, v, bold] of totals) {
    doc.font(bold ? FONT.bold : FONT.regular).fontSize(bold ? 12 : 10);
    doc.text(k, left + width / 2, y, { width: width / 4, align: 'right' });
    doc.text(v, left + (3 * width) / 4, y, { width: width / 4, align: 'right' });
    y += bold ? 18 : 14;
  }
  if (i.payment_tx_hash) {
    doc.font(FONT.regular).fontSize(9).fillColor('#555555').text(`Payment reported with reference ${i.payment_tx_hash}, awaiting confirmation.`, left, y + 10, { width });
  }
  const finished = sent(res);
  doc.end();
  await finished;
}
