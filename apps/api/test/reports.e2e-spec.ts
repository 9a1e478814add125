import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ZReportSchema } from '@kidogo/contracts';
import { createTestApp, type TestApp } from './support/test-app.js';
import {
  seedCustomer,
  seedCustomerWithDevice,
  seedItem,
  seedPayment,
  seedRoles,
  seedTenant,
  seedTokenLog,
  type SeededUser,
} from './support/factories.js';
import { binaryParser, bodyBytes, pdfText } from './support/pdf.js';
import { businessDay } from './support/business-day.js';

/** Today in the API's business time zone (Africa/Nairobi here), which names the downloads. */
const today = () => businessDay();

/** Minimal RFC 4180 reader, to check the quoting from the consumer's side. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(cell);
      cell = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += ch;
  }
  if (cell || row.length) rows.push([...row, cell]);
  return rows;
}

describe('reports', () => {
  let t: TestApp;
  let a: SeededUser;
  let b: SeededUser;
  let tricky: { id: number };
  let withDevice: Awaited<ReturnType<typeof seedCustomerWithDevice>>;

  beforeAll(async () => {
    t = await createTestApp();
    ({ user: a } = await seedTenant(t));
    ({ user: b } = await seedTenant(t));
    const org = a.organization_id;
    withDevice = await seedCustomerWithDevice(t, org, { template: { free_code_price: '1000.00' }, item: { price: '5000.00' } });
    await seedPayment(t, org, { customer_id: withDevice.customer.id, item_id: withDevice.item.id, amount: '300.00', paid_at: new Date('2025-01-10T10:00:00Z') });
    await seedPayment(t, org, { customer_id: withDevice.customer.id, item_id: withDevice.item.id, amount: '200.50', paid_at: new Date('2025-01-31T23:30:00Z') });
    await seedPayment(t, org, { customer_id: withDevice.customer.id, amount: '150.00', status: 'success', paid_at: new Date('2025-03-01T00:10:00Z') });
    await seedPayment(t, org, { customer_id: withDevice.customer.id, amount: '999.00', status: 'failed', paid_at: new Date('2025-02-10T00:00:00Z') });
    // Paid more than the device costs: remaining must read 0, not negative.
    const over = await seedCustomer(t, org, { customer_name: 'Over Payer' });
    const overItem = await seedItem(t, org, { customer_id: over.id, price: '100.00' });
    await seedPayment(t, org, { customer_id: over.id, item_id: overItem.id, amount: '250.00', paid_at: new Date('2025-03-05T00:00:00Z') });
    tricky = await seedCustomer(t, org, { customer_name: 'Wanjiku, "Mama Mboga"' });
    await seedCustomer(t, org, { customer_name: '=HYPERLINK("x")' });
    await seedTokenLog(t, org, withDevice.item, { token_type: 'activation', days: 0, created_at: new Date('2025-01-10T10:00:00Z') });
    await seedTokenLog(t, org, withDevice.item, { token_type: 'add_time', days: 6, created_at: new Date('2025-01-10T11:00:00Z') });
    await seedTokenLog(t, org, withDevice.item, { token_type: 'add_time', days: 4, created_at: new Date('2025-01-10T12:00:00Z') });
    await seedTokenLog(t, org, withDevice.item, { token_type: 'add_time', days: 3, created_at: new Date('2025-01-31T23:30:00Z') });
  });
  afterAll(() => t.close());

  const report = (user: SeededUser, body: Record<string, unknown>) => t.http.post('/payg/reports/page').set(user.auth).send(body);

  it('gives monthly revenue with zero months filled in', async () => {
    const r = ZReportSchema.parse((await report(a, { report: 'revenue', from: '2025-01-01', to: '2025-03-31' }).expect(200)).body);
    expect(r.columns.map((c) => c.key)).toEqual(['month', 'revenue', 'payments']);
    // Months of Nairobi: 2025-01-31T23:30Z is 02:30 on 1 February there, 2025-03-01T00:10Z 03:10 on 1 March.
    expect(r.rows).toEqual([
      { month: '2025-01', revenue: '300.00', payments: 1 },
      { month: '2025-02', revenue: '200.50', payments: 1 },
      { month: '2025-03', revenue: '400.00', payments: 2 },
    ]);
    expect(r.totals).toEqual({ rows: 3, revenue: '900.50', payments: 4 });
    expect(r.from).toBe('2025-01-01');
    expect(r.to).toBe('2025-03-31');
    const open = ZReportSchema.parse((await report(a, { report: 'revenue' }).expect(200)).body);
    expect(open.rows.map((row) => row.month)).toEqual(['2025-01', '2025-02', '2025-03']);
  });

  it('lists customers with devices, paid, remaining (never negative) and status', async () => {
    const r = ZReportSchema.parse((await report(a, { report: 'customers' }).expect(200)).body);
    expect(r.rows).toHaveLength(4);
    const byName = Object.fromEntries(r.rows.map((row) => [row.customer_name, row]));
    // Remaining is per device (1,000 − the 500.50 paid on it): the 150.00 paid to no device pays none off.
    expect(byName[withDevice.customer.customer_name]).toMatchObject({ devices: 1, total_paid: '650.50', remaining: '499.50', status: 'active' });
    expect(byName['Over Payer']).toMatchObject({ devices: 1, total_paid: '250.00', remaining: '0.00' });
    expect(byName['Wanjiku, "Mama Mboga"']).toMatchObject({ devices: 0, total_paid: '0.00', remaining: '0.00' });
    // The one device on a plan (nothing upfront, given today) expects nothing yet: no share, on track.
    expect(byName[withDevice.customer.customer_name]).toMatchObject({ expected: '0.00', paid_towards: '500.50', repaid_share: null, standing: 'On track' });
    expect(byName['Over Payer']).toMatchObject({ expected: null, repaid_share: null, standing: null });
    expect(r.totals).toEqual({ rows: 4, devices: 2, total_paid: '900.50', remaining: '499.50', expected: '0.00', paid_towards: '500.50', repaid_share: null });
    const none = ZReportSchema.parse((await report(a, { report: 'customers', to: '2020-01-01' }).expect(200)).body);
    expect(none.rows).toEqual([]);
    expect(none.totals).toEqual({ rows: 0, devices: 0, total_paid: '0.00', remaining: '0.00', expected: '0.00', paid_towards: '0.00', repaid_share: null });
  });

  it('counts tokens by day and type', async () => {
    const r = ZReportSchema.parse((await report(a, { report: 'tokens', from: '2025-01-01', to: '2025-02-01' }).expect(200)).body);
    expect(r.rows).toEqual([
      { day: '2025-01-10', token_type: 'activation', tokens: 1, days: 0 },
      { day: '2025-01-10', token_type: 'add_time', tokens: 2, days: 10 },
      // 2025-01-31T23:30Z: 1 February in Nairobi.
      { day: '2025-02-01', token_type: 'add_time', tokens: 1, days: 3 },
    ]);
    expect(r.totals).toEqual({ rows: 3, tokens: 4, days: 13 });
    const january = ZReportSchema.parse((await report(a, { report: 'tokens', from: '2025-01-01', to: '2025-01-31' }).expect(200)).body);
    expect(january.totals).toEqual({ rows: 2, tokens: 3, days: 10 });
  });

  it('downloads CSV with correct quoting, no formulas, and a totals row', async () => {
    const res = await report(a, { report: 'customers', format: 'csv' }).expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="customers-report-${today()}.csv"`);
    const rows = parseCsv(res.text);
    expect(rows[0]).toEqual([
      'Customer ID',
      'Customer Name',
      'Phone Contact',
      'Status',
      'Devices',
      'Total Paid',
      'Remaining',
      'Expected by Today',
      'Paid Towards It',
      'Repaid %',
      'Standing',
      'Created',
    ]);
    expect(rows).toHaveLength(6);
    expect(rows.find((r) => r[0] === String(tricky.id))?.[1]).toBe('Wanjiku, "Mama Mboga"');
    expect(res.text).toContain('"Wanjiku, ""Mama Mboga"""');
    expect(rows.some((r) => r[1] === `'=HYPERLINK("x")`)).toBe(true);
    expect(rows.at(-1)).toEqual(['Total', '', '', '', '2', '900.50', '499.50', '0.00', '500.50', '', '', '']);
    const revenue = await report(a, { report: 'revenue', format: 'csv' }).expect(200);
    expect(revenue.headers['content-disposition']).toBe(`attachment; filename="revenue-report-${today()}.csv"`);
    expect(parseCsv(revenue.text)[1]).toEqual(['2025-01', '300.00', '1']);
  });

  it('downloads a PDF with the title, period, rows, totals and page numbers', async () => {
    const res = await report(a, { report: 'revenue', format: 'pdf', from: '2025-01-01', to: '2025-03-31' }).buffer(true).parse(binaryParser).expect(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="revenue-report-${today()}.pdf"`);
    const pdf = bodyBytes(res);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const text = pdfText(pdf);
    if (text === null) return;
    expect(text).toContain('Revenue Report');
    expect(text).toContain('Period: 2025-01-01 to 2025-03-31');
    expect(text).toMatch(/2025-01\s+300\.00\s+1/);
    expect(text).toMatch(/2025-02\s+200\.50\s+1/);
    expect(text).toContain('(Africa/Nairobi)');
    expect(text).toMatch(/Total\s+900\.50\s+4/);
    expect(text).toContain('Page 1');
  });

  it('streams a customer report past one batch, in id order, at every format', async () => {
    const { user: big } = await seedTenant(t);
    const org = big.organization_id;
    await t.db.db.customer.createMany({
      data: Array.from({ length: 1205 }, (_, i) => ({
        organization_id: org,
        customer_name: `Bulk ${String(i).padStart(4, '0')}`,
        id_number: `BULK${i}`,
        phone_contact: `0700${String(i).padStart(6, '0')}`,
      })),
    });
    const r = ZReportSchema.parse((await report(big, { report: 'customers' }).expect(200)).body);
    expect(r.rows).toHaveLength(1205);
    const ids = r.rows.map((row) => Number(row.customer_id));
    expect(new Set(ids).size).toBe(1205);
    expect(ids).toEqual([...ids].sort((x, y) => x - y));
    expect(r.totals.rows).toBe(1205);
    const csv = await report(big, { report: 'customers', format: 'csv' }).expect(200);
    expect(parseCsv(csv.text)).toHaveLength(1207);
    const pdf = await report(big, { report: 'customers', format: 'pdf' }).buffer(true).parse(binaryParser).expect(200);
    const text = pdfText(bodyBytes(pdf));
    if (text === null) return;
    expect(text).toContain('Bulk 1204');
    expect(text).toMatch(/Page \d\d/);
  });

  it('gives one page of a report with the totals of all of it, the same rows as the whole report', async () => {
    const { user: paged } = await seedTenant(t);
    const org = paged.organization_id;
    await t.db.db.customer.createMany({
      data: Array.from({ length: 45 }, (_, i) => ({ organization_id: org, customer_name: `Paged ${i}`, id_number: `PAGED${i}`, phone_contact: `0733${String(i).padStart(6, '0')}` })),
    });
    const seeded = await seedCustomerWithDevice(t, org, { template: { free_code_price: '800.00' }, item: { price: '900.00' } });
    await seedPayment(t, org, { customer_id: seeded.customer.id, item_id: seeded.item.id, amount: '120.00' });
    await seedPayment(t, org, { customer_id: seeded.customer.id, amount: '30.00', status: 'failed' });
    for (const body of [{ report: 'customers' }, { report: 'customers', from: '2020-01-01' }, { report: 'revenue', from: '2025-01-01', to: '2025-12-31' }, { report: 'tokens' }]) {
      const whole = ZReportSchema.parse((await report(body.report === 'customers' ? paged : a, body).expect(200)).body);
      for (const [offset, limit] of [[0, 20], [20, 20], [40, 20], [3, 1], [46, 5], [1000, 10]] as const) {
        const page = ZReportSchema.parse((await report(body.report === 'customers' ? paged : a, { ...body, limit, offset }).expect(200)).body);
        expect({ body, offset, rows: page.rows, totals: page.totals, columns: page.columns }).toEqual({
          body,
          offset,
          rows: whole.rows.slice(offset, offset + limit),
          totals: whole.totals,
          columns: whole.columns,
        });
      }
    }
    const first = ZReportSchema.parse((await report(paged, { report: 'customers', limit: 10 }).expect(200)).body);
    expect(first.totals).toEqual({ rows: 46, devices: 1, total_paid: '120.00', remaining: '680.00', expected: '0.00', paid_towards: '120.00', repaid_share: null });
    expect((await report(paged, { report: 'customers', format: 'csv', limit: 10 }).expect(400)).body.message).toBe('limit: only with format json');
    expect((await report(paged, { report: 'customers', offset: 10 }).expect(400)).body.message).toBe('offset: only with limit');
    expect((await report(paged, { report: 'customers', limit: 1001 }).expect(400)).body.message).toBe('limit: must be at most 1000');
    expect((await report(paged, { report: 'customers', limit: 10, offset: -1 }).expect(400)).body.message).toBe('offset: must be at least 0');
  });

  it('works on an empty organization and never shows another organization’s rows', async () => {
    for (const kind of ['revenue', 'customers', 'tokens', 'repossessions'] as const) {
      const r = ZReportSchema.parse((await report(b, { report: kind }).expect(200)).body);
      expect(r.rows).toEqual([]);
      expect(r.totals.rows).toBe(0);
    }
    const csv = await report(b, { report: 'customers', format: 'csv' }).expect(200);
    expect(csv.text).not.toContain('Mama Mboga');
    const pdf = await report(b, { report: 'tokens', format: 'pdf' }).buffer(true).parse(binaryParser).expect(200);
    const text = pdfText(bodyBytes(pdf));
    if (text !== null) expect(text).toContain('No data for this period.');
  });

  it('refuses unknown reports, formats and dates with a 400 naming the field', async () => {
    expect((await report(a, { report: 'sales' }).expect(400)).body.message).toMatch(/^report: must be one of revenue, customers, tokens, repossessions/);
    expect((await report(a, { report: 'revenue', format: 'xml' }).expect(400)).body.message).toMatch(/^format: /);
    expect((await report(a, { report: 'revenue', from: 'last year' }).expect(400)).body.message).toMatch(/^from: /);
    expect((await report(a, { report: 'revenue', from: '2025-03-01', to: '2025-01-01' }).expect(400)).body.message).toMatch(/^from: /);
  });

  it('is open to every role and closed without a token', async () => {
    const r = await seedRoles(t);
    for (const user of [r.owner, r.admin, r.staff, r.superAdmin]) await report(user, { report: 'revenue' }).expect(200);
    await t.http.post('/payg/reports/page').send({ report: 'revenue' }).expect(401);
  });
});
