import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  ZAdminInvoiceListSchema,
  ZInvoiceListSchema,
  ZInvoiceSchema,
  ZInvoiceSettingsSchema,
  ZInvoiceStatsSchema,
  ZOrgInvoiceSettingsSchema,
  type Invoice,
} from '@kidogo/contracts';
import { createTestApp, type TestApp } from './support/test-app.js';
import { seedRoles, seedTenant, seedUser, type SeededUser } from './support/factories.js';
import { binaryParser, bodyBytes, pdfText } from './support/pdf.js';
import { businessDay } from './support/business-day.js';

const DAY = 86_400_000;
/** A date `offset` days from today, where today is the business day (Africa/Nairobi): due dates are counted from it. */
const day = (offset: number) => businessDay(Date.now() + offset * DAY);

describe('invoices', () => {
  let t: TestApp;
  let roles: Awaited<ReturnType<typeof seedRoles>>;
  let sa: SeededUser;
  let owner: SeededUser;
  let otherOwner: SeededUser;

  beforeAll(async () => {
    t = await createTestApp();
    roles = await seedRoles(t);
    sa = roles.superAdmin;
    owner = roles.owner;
    ({ user: otherOwner } = await seedTenant(t));
    await t.db.platform.organization.update({ where: { id: roles.org.id }, data: { name: 'Sunny Solar Ltd' } });
  });
  afterAll(() => t.close());

  const create = (user: SeededUser, body: Record<string, unknown>, path = '/payg/admin/invoices') =>
    t.http.post(path).set(user.auth).send(body);

  it('starts with the default global settings and saves changes', async () => {
    const s = ZInvoiceSettingsSchema.parse((await t.http.get('/payg/admin/settings/invoices').set(sa.auth).expect(200)).body);
    expect(s).toMatchObject({ default_tax_rate: 0, default_currency: 'USD', invoice_prefix: 'INV', template_html: null, default_payment_terms: 30 });
    const saved = ZInvoiceSettingsSchema.parse(
      (
        await t.http
          .put('/payg/admin/settings/invoices')
          .set(sa.auth)
          .send({ default_tax_rate: '16', issuer_name: 'Kidogo Platform Ltd', issuer_details: 'PO Box 1, Nairobi' })
          .expect(200)
      ).body,
    );
    expect(saved).toMatchObject({ default_tax_rate: 16, issuer_name: 'Kidogo Platform Ltd', default_currency: 'USD' });
    expect((await t.http.put('/payg/admin/settings/invoices').set(sa.auth).send({ default_tax_rate: 101 }).expect(400)).body.message).toMatch(
      /^default_tax_rate: must be a number from 0 to 100/,
    );
    await t.http.put('/payg/admin/settings/invoices').set(sa.auth).send({ default_tax_rate: 'abc' }).expect(400);
    await t.http.put('/payg/admin/settings/invoices').set(sa.auth).send({ default_currency: 'XYZ' }).expect(400);
    await t.http.put('/payg/admin/settings/invoices').set(sa.auth).send({ invoice_prefix: 'IN V' }).expect(400);
  });

  let lineInvoice: Invoice;

  it('creates an invoice from line items (JSON string), drops blank rows and adds tax from the settings', async () => {
    const res = await create(sa, {
      organization_id: roles.org.id,
      due_date: day(30),
      description: 'Platform fees, January',
      amount: 1,
      line_items: JSON.stringify([
        { description: 'Platform subscription', quantity: 1, unit_price: 100 },
        { description: 'SMS bundle', quantity: '2.5', unit_price: '10.10' },
        { description: '', quantity: 5, unit_price: 5 },
      ]),
    }).expect(201);
    lineInvoice = ZInvoiceSchema.parse(res.body);
    expect(lineInvoice.invoice_number).toMatch(/^INV-\d{6}$/);
    expect(lineInvoice.line_items).toEqual([
      { description: 'Platform subscription', quantity: 1, unit_price: '100.00', total_amount: '100.00' },
      { description: 'SMS bundle', quantity: 2.5, unit_price: '10.10', total_amount: '25.25' },
    ]);
    expect(lineInvoice).toMatchObject({
      organization_id: roles.org.id,
      organization_name: 'Sunny Solar Ltd',
      subtotal: '125.25',
      tax_rate: 16,
      tax_amount: '20.04',
      amount: '145.29',
      currency: 'USD',
      status: 'pending',
      due_date: day(30),
      paid_at: null,
      created_by: sa.username,
    });
    const audit = await t.db.platform.auditLog.findFirst({ where: { organization_id: roles.org.id, action: 'invoice.created' } });
    expect(audit?.description).toContain(lineInvoice.invoice_number);
  });

  it('creates an invoice from the console shape and numbers invoices in sequence, never reusing a number', async () => {
    const first = ZInvoiceSchema.parse(
      (await create(sa, { organization_id: roles.org.id, customer_name: 'Jane Owner', customer_email: 'jane@sunny.test', amount: '250.00' }).expect(201)).body,
    );
    expect(first).toMatchObject({ customer_name: 'Jane Owner', customer_email: 'jane@sunny.test', amount: '250.00', subtotal: '250.00', tax_amount: '0.00', status: 'pending' });
    expect(first.due_date).toBe(day(30));
    expect(first.line_items).toEqual([{ description: 'Services', quantity: 1, unit_price: '250.00', total_amount: '250.00' }]);
    const n = (i: Invoice) => Number(i.invoice_number.slice(4));
    expect(n(first)).toBe(n(lineInvoice) + 1);
    await t.http.delete(`/payg/admin/invoices/${first.invoice_id}`).set(sa.auth).expect(200, { message: 'Invoice deleted successfully' });
    const second = ZInvoiceSchema.parse(
      (await create(sa, { organization_id: roles.org.id, customer_name: 'Jane', customer_email: 'jane@sunny.test', amount: 10, status: 'draft', due_date: day(5) }).expect(201)).body,
    );
    expect(n(second)).toBe(n(first) + 1);
    expect(second.status).toBe('draft');
    await t.http.get(`/payg/admin/invoices/${first.invoice_id}`).set(sa.auth).expect(404);
  });

  it('validates both shapes, naming each field', async () => {
    const missing = await create(sa, { organization_id: roles.org.id, customer_name: 'X' }).expect(400);
    expect(missing.body.message).toContain('customer_email: is required');
    expect(missing.body.message).toContain('amount: is required');
    expect((await create(sa, { organization_id: roles.org.id, customer_name: 'X', customer_email: 'nope', amount: 5 }).expect(400)).body.message).toMatch(/customer_email: must be a valid email/);
    expect((await create(sa, { organization_id: roles.org.id, due_date: day(3), line_items: [{ description: '', quantity: 1, unit_price: 1 }] }).expect(400)).body.message).toMatch(/line_items: needs at least one line item/);
    expect((await create(sa, { organization_id: roles.org.id, line_items: [{ description: 'a', quantity: 1, unit_price: 1 }] }).expect(400)).body.message).toMatch(/due_date: is required/);
    expect((await create(sa, { organization_id: roles.org.id, due_date: day(3), line_items: '[not json' }).expect(400)).body.message).toMatch(/^line_items: /);
    // A day that is not on the calendar is refused, not rolled over to the next month.
    expect((await create(sa, { organization_id: roles.org.id, due_date: '2027-02-30', line_items: [{ description: 'a', quantity: 1, unit_price: 1 }] }).expect(400)).body.message).toMatch(/^due_date: must be a date/);
    expect((await create(sa, { organization_id: roles.org.id, customer_name: 'X', customer_email: 'x@y.test', amount: 5, status: 'lost' }).expect(400)).body.message).toMatch(/^status: must be one of/);
    await create(sa, { customer_name: 'X', customer_email: 'x@y.test', amount: 5 }).expect(400);
    // An empty due date from a form reads as not given (payment terms apply); a huge amount is a 400, not a 500.
    const blankDue = ZInvoiceSchema.parse((await create(sa, { organization_id: otherOwner.organization_id, customer_name: 'X', customer_email: 'x@y.test', amount: 5, due_date: '' }).expect(201)).body);
    expect(blankDue.due_date).toBe(day(30));
    await t.http.delete(`/payg/admin/invoices/${blankDue.invoice_id}`).set(sa.auth).expect(200);
    await create(sa, { organization_id: roles.org.id, due_date: day(3), line_items: [{ description: 'Huge', quantity: 1_000_000, unit_price: 999_999_999_999 }] }).expect(400);
    expect((await create(sa, { organization_id: 'no-such-org', customer_name: 'X', customer_email: 'x@y.test', amount: 5 }).expect(404)).body.message).toBe('Organization not found');
  });

  it('reads invoices past their due date as overdue, and filters, searches and pages the admin list', async () => {
    const late = ZInvoiceSchema.parse(
      (await create(sa, { organization_id: otherOwner.organization_id, customer_name: 'Late Co', customer_email: 'late@co.test', amount: 40, due_date: day(-3) }).expect(201)).body,
    );
    expect(late.status).toBe('overdue');
    expect(late.stored_status).toBe('pending');
    const overdue = ZAdminInvoiceListSchema.parse((await t.http.get('/payg/admin/invoices?status=overdue').set(sa.auth).expect(200)).body);
    expect(overdue.data.map((i) => i.invoice_id)).toEqual([late.invoice_id]);
    const pending = ZAdminInvoiceListSchema.parse((await t.http.get('/payg/admin/invoices?status=pending').set(sa.auth).expect(200)).body);
    expect(pending.data.map((i) => i.invoice_id)).not.toContain(late.invoice_id);
    const byOrg = ZAdminInvoiceListSchema.parse((await t.http.get(`/payg/admin/invoices?organization_id=${roles.org.id}`).set(sa.auth).expect(200)).body);
    expect(byOrg.data.every((i) => i.organization_id === roles.org.id)).toBe(true);
    expect(byOrg.pagination.total).toBe(2);
    const search = ZAdminInvoiceListSchema.parse((await t.http.get('/payg/admin/invoices?search=LATE').set(sa.auth).expect(200)).body);
    expect(search.data.map((i) => i.customer_name)).toEqual(['Late Co']);
    const paged = ZAdminInvoiceListSchema.parse((await t.http.get('/payg/admin/invoices?limit=1&offset=1').set(sa.auth).expect(200)).body);
    expect(paged.data).toHaveLength(1);
    expect(paged.pagination).toEqual({ total: 3, total_pages: 3, limit: 1, offset: 1 });
    const one = ZInvoiceSchema.parse((await t.http.get(`/payg/admin/invoices/${late.invoice_id}`).set(sa.auth).expect(200)).body);
    expect(one.invoice_number).toBe(late.invoice_number);
    await t.http.get('/payg/admin/invoices/not-a-uuid').set(sa.auth).expect(400);
  });

  it('marks an invoice paid (setting paid_at) and counts it in the stats', async () => {
    const before = ZInvoiceStatsSchema.parse((await t.http.get('/payg/admin/invoices/stats').set(sa.auth).expect(200)).body);
    expect(before).toMatchObject({ total_invoices: 3, paid_invoices: 0, overdue_invoices: 1, total_revenue: '0.00' });
    const paid = ZInvoiceSchema.parse(
      (await t.http.put(`/payg/admin/invoices/${lineInvoice.invoice_id}/status`).set(sa.auth).send({ status: 'paid' }).expect(200)).body,
    );
    expect(paid.status).toBe('paid');
    expect(Date.parse(paid.paid_at!)).toBeGreaterThan(Date.now() - 60_000);
    const after = ZInvoiceStatsSchema.parse((await t.http.get('/payg/admin/invoices/stats').set(sa.auth).expect(200)).body);
    expect(after).toMatchObject({ total_invoices: 3, paid_invoices: 1, pending_invoices: 0, total_revenue: '145.29' });
    const back = ZInvoiceSchema.parse(
      (await t.http.put(`/payg/admin/invoices/${lineInvoice.invoice_id}/status`).set(sa.auth).send({ status: 'sent' }).expect(200)).body,
    );
    expect(back.paid_at).toBeNull();
    await t.http.put(`/payg/admin/invoices/${lineInvoice.invoice_id}/status`).set(sa.auth).send({ status: 'paid' }).expect(200);
    await t.http.put(`/payg/admin/invoices/${lineInvoice.invoice_id}/status`).set(sa.auth).send({ status: 'done' }).expect(400);
    const audit = await t.db.platform.auditLog.findMany({ where: { organization_id: roles.org.id, action: 'invoice.status_changed' } });
    expect(audit.length).toBeGreaterThanOrEqual(3);
  });

  it("lists and counts only the caller's organization's invoices", async () => {
    const mine = ZInvoiceListSchema.parse((await t.http.get('/payg/invoices').set(roles.staff.auth).expect(200)).body);
    expect(mine.data).toHaveLength(2);
    expect(mine.data.every((i) => i.organization_id === roles.org.id)).toBe(true);
    expect(mine.pagination).toEqual({ total: 2, total_pages: 1, page: 1, limit: 50 });
    const page2 = ZInvoiceListSchema.parse((await t.http.get('/payg/invoices?page=2&limit=1').set(roles.staff.auth).expect(200)).body);
    expect(page2.data).toHaveLength(1);
    const stats = ZInvoiceStatsSchema.parse((await t.http.get('/payg/invoices/stats').set(roles.staff.auth).expect(200)).body);
    expect(stats).toMatchObject({ total_invoices: 2, paid_invoices: 1, total_revenue: '145.29' });
    const theirs = ZInvoiceListSchema.parse((await t.http.get('/payg/invoices').set(otherOwner.auth).expect(200)).body);
    expect(theirs.data.map((i) => i.customer_name)).toEqual(['Late Co']);
    const theirStats = ZInvoiceStatsSchema.parse((await t.http.get('/payg/invoices/stats').set(otherOwner.auth).expect(200)).body);
    expect(theirStats).toMatchObject({ total_invoices: 1, overdue_invoices: 1, total_revenue: '0.00', outstanding_amount: '40.00' });
  });

  it('never adds money in different currencies: totals in the billing currency, and each currency apart', async () => {
    const { user, org } = await seedTenant(t);
    const bill = (amount: string, currency: string, status: string) =>
      t.http
        .post('/payg/admin/invoices')
        .set(sa.auth)
        .send({ organization_id: org.id, customer_name: 'Multi', customer_email: 'multi@example.test', amount, currency, status })
        .expect(201);
    await bill('100.00', 'USD', 'paid');
    await bill('5000.00', 'KES', 'paid');
    await bill('10000.00', 'KES', 'pending');
    const stats = ZInvoiceStatsSchema.parse((await t.http.get('/payg/invoices/stats').set(user.auth).expect(200)).body);
    expect(stats).toMatchObject({ total_invoices: 3, paid_invoices: 2, currency: 'USD', total_revenue: '100.00', outstanding_amount: '0.00' });
    expect(stats.by_currency).toEqual([
      { currency: 'KES', total_revenue: '5000.00', outstanding_amount: '10000.00' },
      { currency: 'USD', total_revenue: '100.00', outstanding_amount: '0.00' },
    ]);
    // An organization billed in shillings reads its totals in shillings.
    await t.http.put('/payg/update-invoice-settings').set(user.auth).send({ default_currency: 'KES' }).expect(200);
    expect(ZInvoiceStatsSchema.parse((await t.http.get('/payg/invoices/stats').set(user.auth).expect(200)).body)).toMatchObject({
      currency: 'KES',
      total_revenue: '5000.00',
      outstanding_amount: '10000.00',
    });
  });

  it('renders an invoice as escaped HTML, with the global template when one is set', async () => {
    const inv = ZInvoiceSchema.parse(
      (await create(sa, { organization_id: roles.org.id, due_date: day(10), description: '<script>alert(1)</script>', line_items: [{ description: 'Fee <b>', quantity: 1, unit_price: 5 }] }).expect(201)).body,
    );
    const html = await t.http.get(`/payg/invoice/${inv.invoice_id}`).set(roles.staff.auth).expect(200);
    expect(html.headers['content-type']).toMatch(/^text\/html/);
    // Opened on its own, its style sheet applies and nothing runs.
    expect(html.headers['content-security-policy']).toBe("default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'none'");
    expect(html.text).toContain(inv.invoice_number);
    expect(html.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html.text).not.toContain('<script>alert');
    expect(html.text).toContain('Fee &lt;b&gt;');
    expect(html.text).toContain('Kidogo Platform Ltd');
    await t.http.put('/payg/admin/settings/invoices').set(sa.auth).send({ template_html: '<h1>{{invoice_number}}</h1><p>{{organization_name}}|{{amount}} {{currency}}|{{unknown}}</p><table>{{line_items}}</table>' }).expect(200);
    const custom = await t.http.get(`/payg/invoice/${inv.invoice_id}`).set(roles.staff.auth).expect(200);
    expect(custom.text).toContain(`<h1>${inv.invoice_number}</h1><p>Sunny Solar Ltd|5.80 USD|</p>`);
    expect(custom.text).toContain('<td>Fee &lt;b&gt;</td>');
    await t.http.put('/payg/admin/settings/invoices').set(sa.auth).send({ template_html: null }).expect(200);
    // Another organization cannot see it; the super admin can see every organization's.
    await t.http.get(`/payg/invoice/${inv.invoice_id}`).set(otherOwner.auth).expect(404);
    await t.http.get(`/payg/invoice/${inv.invoice_id}`).set(sa.auth).expect(200);
  });

  it('downloads a PDF that reads back with the number, line items and total', async () => {
    const res = await t.http.get(`/payg/download-invoice/${lineInvoice.invoice_id}`).set(roles.staff.auth).buffer(true).parse(binaryParser).expect(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="invoice-${lineInvoice.invoice_id}.pdf"`);
    const pdf = bodyBytes(res);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    await t.http.get(`/payg/download-invoice/${lineInvoice.invoice_id}`).set(otherOwner.auth).expect(404);
    const text = pdfText(pdf);
    if (text === null) return;
    expect(text).toContain(lineInvoice.invoice_number);
    expect(text).toContain('Platform subscription');
    expect(text).toContain('SMS bundle');
    expect(text).toMatch(/Subtotal\s+125\.25 USD/);
    expect(text).toMatch(/Tax \(16%\)\s+20\.04 USD/);
    expect(text).toMatch(/Total\s+145\.29 USD/);
    expect(text).toContain('Kidogo Platform Ltd');
    expect(text).toContain('Sunny Solar Ltd');
    expect(text).toContain('Paid');
  });

  it('records a submitted payment without changing the status, and shows it to the super admin', async () => {
    const inv = ZInvoiceSchema.parse(
      (await create(sa, { organization_id: roles.org.id, customer_name: 'Jane', customer_email: 'j@s.test', amount: 75 }).expect(201)).body,
    );
    await t.http.post('/payg/submit-payment').set(otherOwner.auth).send({ payment_id: inv.invoice_id, tx_hash: '0xabc' }).expect(404);
    const sub = ZInvoiceSchema.parse(
      (await t.http.post('/payg/submit-payment').set(owner.auth).send({ payment_id: inv.invoice_id, tx_hash: '0xabc123' }).expect(200)).body,
    );
    expect(sub.status).toBe('pending');
    expect(sub.payment_tx_hash).toBe('0xabc123');
    expect(sub.payment_submitted_at).not.toBeNull();
    const list = ZAdminInvoiceListSchema.parse((await t.http.get(`/payg/admin/invoices?search=${inv.invoice_number}`).set(sa.auth).expect(200)).body);
    expect(list.data[0].payment_tx_hash).toBe('0xabc123');
    const already = await t.http.post('/payg/submit-payment').set(owner.auth).send({ payment_id: lineInvoice.invoice_id, tx_hash: 'x' }).expect(409);
    expect(already.body.message).toMatch(/is paid/);
    expect((await t.http.post('/payg/submit-payment').set(owner.auth).send({ payment_id: inv.invoice_id }).expect(400)).body.message).toBe('tx_hash: is required');
  });

  it('lets owners manage their own organization’s invoices and super admins any, and nobody else', async () => {
    const ownInv = ZInvoiceSchema.parse(
      (await create(owner, { due_date: day(7), line_items: [{ description: 'Own', quantity: 1, unit_price: 3 }] }, '/payg/invoices').expect(201)).body,
    );
    expect(ownInv.organization_id).toBe(roles.org.id);
    const forbidden = await create(owner, { organization_id: otherOwner.organization_id, due_date: day(7), line_items: [{ description: 'x', quantity: 1, unit_price: 1 }] }, '/payg/invoices').expect(403);
    expect(forbidden.body.message).toMatch(/own organization/);
    for (const u of [roles.admin, roles.staff]) {
      await create(u, { due_date: day(7), line_items: [{ description: 'x', quantity: 1, unit_price: 1 }] }, '/payg/invoices').expect(403);
      await t.http.put(`/payg/invoices/${ownInv.invoice_id}/status`).set(u.auth).send({ status: 'sent' }).expect(403);
      await t.http.delete(`/payg/invoices/${ownInv.invoice_id}`).set(u.auth).expect(403);
    }
    await create(sa, { organization_id: otherOwner.organization_id, customer_name: 'A', customer_email: 'a@b.test', amount: 1 }, '/payg/invoices').expect(201);

    // Another organization's owner neither sees nor changes it.
    await t.http.put(`/payg/invoices/${ownInv.invoice_id}/status`).set(otherOwner.auth).send({ status: 'cancelled' }).expect(404);
    await t.http.delete(`/payg/invoices/${ownInv.invoice_id}`).set(otherOwner.auth).expect(404);
    const untouched = await t.db.platform.invoice.findUniqueOrThrow({ where: { id: ownInv.invoice_id } });
    expect(untouched.status).toBe('pending');

    const sent = ZInvoiceSchema.parse((await t.http.put(`/payg/invoices/${ownInv.invoice_id}/status`).set(owner.auth).send({ status: 'sent' }).expect(200)).body);
    expect(sent.status).toBe('sent');
    await t.http.delete(`/payg/invoices/${ownInv.invoice_id}`).set(owner.auth).expect(200);
    expect(await t.db.platform.invoice.findUnique({ where: { id: ownInv.invoice_id } })).toBeNull();
  });

  it('keeps the admin invoice routes to super admins', async () => {
    for (const u of [roles.owner, roles.admin, roles.staff]) {
      await t.http.get('/payg/admin/invoices').set(u.auth).expect(403);
      await t.http.get('/payg/admin/invoices/stats').set(u.auth).expect(403);
      await t.http.get(`/payg/admin/invoices/${lineInvoice.invoice_id}`).set(u.auth).expect(403);
      await create(u, { organization_id: u.organization_id, customer_name: 'A', customer_email: 'a@b.test', amount: 1 }).expect(403);
      await t.http.put(`/payg/admin/invoices/${lineInvoice.invoice_id}/status`).set(u.auth).send({ status: 'pending' }).expect(403);
      await t.http.delete(`/payg/admin/invoices/${lineInvoice.invoice_id}`).set(u.auth).expect(403);
      await t.http.get('/payg/admin/settings/invoices').set(u.auth).expect(403);
      await t.http.put('/payg/admin/settings/invoices').set(u.auth).send({ default_tax_rate: 5 }).expect(403);
    }
    const settings = ZInvoiceSettingsSchema.parse((await t.http.get('/payg/admin/settings/invoices').set(sa.auth).expect(200)).body);
    expect(settings.default_tax_rate).toBe(16);
  });

  it("keeps each owner's billing preferences and uses them on that organization's invoices", async () => {
    const initial = ZOrgInvoiceSettingsSchema.parse((await t.http.get('/payg/update-invoice-settings').set(owner.auth).expect(200)).body);
    expect(initial).toMatchObject({ organization_id: roles.org.id, default_currency: 'USD', default_payment_terms: 30, billing_name: null });
    const saved = ZOrgInvoiceSettingsSchema.parse(
      (
        await t.http
          .put('/payg/update-invoice-settings')
          .set(owner.auth)
          .send({ default_currency: 'KES', default_payment_terms: 14, billing_name: 'Sunny Solar Kenya', billing_details: 'Accounts: billing@sunny.test' })
          .expect(200)
      ).body,
    );
    expect(saved).toMatchObject({ default_currency: 'KES', default_payment_terms: 14, billing_name: 'Sunny Solar Kenya' });
    await t.http.put('/payg/update-invoice-settings').set(owner.auth).send({ default_currency: 'JPY' }).expect(400);
    for (const u of [roles.admin, roles.staff]) {
      await t.http.get('/payg/update-invoice-settings').set(u.auth).expect(403);
      await t.http.put('/payg/update-invoice-settings').set(u.auth).send({ billing_name: 'x' }).expect(403);
    }
    // Another organization's preferences are its own.
    const other = ZOrgInvoiceSettingsSchema.parse((await t.http.get('/payg/update-invoice-settings').set(otherOwner.auth).expect(200)).body);
    expect(other).toMatchObject({ organization_id: otherOwner.organization_id, default_currency: 'USD', billing_name: null });

    const inv = ZInvoiceSchema.parse((await create(sa, { organization_id: roles.org.id, customer_name: 'J', customer_email: 'j@s.test', amount: 20 }).expect(201)).body);
    expect(inv.currency).toBe('KES');
    expect(inv.due_date).toBe(day(14));
    const html = await t.http.get(`/payg/invoice/${inv.invoice_id}`).set(owner.auth).expect(200);
    expect(html.text).toContain('Sunny Solar Kenya');
    expect(html.text).toContain('Accounts: billing@sunny.test');
  });

  it('changes the prefix of new invoice numbers', async () => {
    await t.http.put('/payg/admin/settings/invoices').set(sa.auth).send({ invoice_prefix: 'KDG' }).expect(200);
    const inv = ZInvoiceSchema.parse((await create(sa, { organization_id: roles.org.id, customer_name: 'J', customer_email: 'j@s.test', amount: 1 }).expect(201)).body);
    expect(inv.invoice_number).toMatch(/^KDG-\d{6}$/);
    await t.http.get('/payg/invoices').expect(401);
  });

  it('lets a new owner see an empty invoice list and zero stats', async () => {
    const { user } = await seedTenant(t);
    const list = ZInvoiceListSchema.parse((await t.http.get('/payg/invoices').set(user.auth).expect(200)).body);
    expect(list).toEqual({ data: [], pagination: { total: 0, total_pages: 0, page: 1, limit: 50 } });
    const stats = ZInvoiceStatsSchema.parse((await t.http.get('/payg/invoices/stats').set(user.auth).expect(200)).body);
    expect(stats).toEqual({
      total_invoices: 0,
      paid_invoices: 0,
      pending_invoices: 0,
      overdue_invoices: 0,
      currency: 'USD',
      total_revenue: '0.00',
      outstanding_amount: '0.00',
      by_currency: [],
    });
    const staff = await seedUser(t, { organization_id: user.organization_id, role: 'staff' });
    await t.http.get('/payg/invoices').set(staff.auth).expect(200);
  });
});
