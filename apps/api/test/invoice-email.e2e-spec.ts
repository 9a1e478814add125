import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ZInvoiceSchema, type Invoice } from '@kidogo/contracts';
import { createTestApp, type TestApp } from './support/test-app.js';
import { FakeSmtp } from './support/fake-smtp.js';
import { seedRoles, seedTenant, type SeededUser } from './support/factories.js';
import { pdfText } from './support/pdf.js';
import { businessDay } from './support/business-day.js';

// An invoice sent by email with its PDF (README "Invoices").

const DAY = 86_400_000;

describe('emailing an invoice', () => {
  let t: TestApp;
  let smtp: FakeSmtp;
  let owner: SeededUser;
  let staff: SeededUser;
  let sa: SeededUser;
  let otherOwner: SeededUser;

  beforeAll(async () => {
    smtp = await new FakeSmtp().start();
    t = await createTestApp({ env: { SMTP_URL: smtp.url, MAIL_FROM: 'Kidogo Billing <billing@kidogo.test>' } });
    const roles = await seedRoles(t);
    ({ owner, staff, superAdmin: sa } = roles);
    ({ user: otherOwner } = await seedTenant(t));
    await t.db.platform.organization.update({ where: { id: roles.org.id }, data: { name: 'Sunny Solar Ltd' } });
    await t.http.put('/payg/admin/settings/invoices').set(sa.auth).send({ issuer_name: 'Kidogo Platform Ltd', issuer_details: 'PO Box 1, Nairobi' }).expect(200);
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  const newInvoice = async (body: Record<string, unknown> = {}): Promise<Invoice> =>
    ZInvoiceSchema.parse(
      (
        await t.http
          .post('/payg/invoices')
          .set(owner.auth)
          .send({ customer_name: 'Amina Otieno', customer_email: `amina-${Math.random().toString(36).slice(2, 8)}@sunny.test`, amount: 1250.5, due_date: businessDay(Date.now() + 10 * DAY), description: 'Platform fee, December', ...body })
          .expect(201)
      ).body,
    );
  const email = (user: SeededUser, id: string, body: Record<string, unknown> = {}, path = '/payg/invoices') =>
    t.http.post(`${path}/${id}/email`).set(user.auth).send(body);

  it('sends the PDF to the customer email, says what is due, records it and marks the invoice sent', async () => {
    const invoice = await newInvoice();
    expect(invoice).toMatchObject({ stored_status: 'pending', emailed_at: null, emailed_to: null });

    const sent = ZInvoiceSchema.parse((await email(owner, invoice.invoice_id).expect(200)).body);
    expect(sent).toMatchObject({ status: 'sent', stored_status: 'sent', emailed_to: invoice.customer_email });
    expect(Date.now() - Date.parse(sent.emailed_at!)).toBeLessThan(60_000);

    const mail = await smtp.mailTo(invoice.customer_email!);
    expect(mail.raw).toMatch(/^From: Kidogo Billing <billing@kidogo\.test>/m);
    expect(mail.subject).toBe(`Invoice ${invoice.invoice_number} from Kidogo Platform Ltd`);
    expect(mail.text).toContain('Hello Amina Otieno,');
    expect(mail.text).toContain(`Invoice ${invoice.invoice_number} from Kidogo Platform Ltd, for USD 1,250.50, is attached as a PDF.`);
    expect(mail.text).toContain('Platform fee, December');
    expect(mail.text).toContain(`Please pay USD 1,250.50 by ${invoice.due_date}.`);
    expect(mail.text).toContain('PO Box 1, Nairobi');
    expect(mail.attachments).toHaveLength(1);
    const [pdf] = mail.attachments;
    expect(pdf).toMatchObject({ filename: `invoice-${invoice.invoice_number}.pdf`, contentType: 'application/pdf' });
    expect(pdf!.content.subarray(0, 5).toString()).toBe('%PDF-');
    const printed = pdfText(pdf!.content);
    if (printed !== null) expect(printed).toContain(invoice.invoice_number);

    const audit = await t.db.platform.auditLog.findFirstOrThrow({ where: { action: 'invoice.emailed', entity_id: invoice.invoice_id } });
    expect(audit).toMatchObject({ actor_username: owner.username, description: `Invoice ${invoice.invoice_number} emailed to ${invoice.customer_email} by ${owner.username}` });
    expect(audit.metadata).toEqual({ to: invoice.customer_email, from: 'pending', status: 'sent' });
  });

  it('sends to another address with a message, and tells a paid invoice is paid; a super admin sends any organization\'s', async () => {
    const invoice = await newInvoice();
    await t.http.put(`/payg/invoices/${invoice.invoice_id}/status`).set(owner.auth).send({ status: 'paid' }).expect(200);
    const sent = ZInvoiceSchema.parse(
      (await email(sa, invoice.invoice_id, { to: ' accounts@sunny.test ', message: 'Your receipt for December.' }, '/payg/admin/invoices').expect(200)).body,
    );
    expect(sent).toMatchObject({ status: 'paid', emailed_to: 'accounts@sunny.test' });
    const mail = await smtp.mailTo('accounts@sunny.test');
    expect(mail.text).toMatch(/^Hello Amina Otieno,\r?\n\r?\nYour receipt for December\.\r?\n/);
    expect(mail.text).toMatch(/It is paid \(\d{4}-\d{2}-\d{2}\): thank you\./);
    expect(smtp.mails.filter((m) => m.to.includes(invoice.customer_email!))).toHaveLength(0);
  });

  it('names the field of bad input and records nothing; refuses a cancelled invoice, another organization\'s and staff', async () => {
    const invoice = await newInvoice();
    const before = smtp.mails.length;
    expect((await email(owner, invoice.invoice_id, { to: 'not-an-email' }).expect(400)).body.errors[0]).toMatchObject({ field: 'to', message: 'must be a valid email' });
    expect((await email(owner, invoice.invoice_id, { message: 'x'.repeat(1001) }).expect(400)).body.errors[0]).toMatchObject({ field: 'message' });
    await email(owner, 'not-a-uuid').expect(400);
    await email(otherOwner, invoice.invoice_id).expect(404);
    await email(staff, invoice.invoice_id).expect(403);

    // An invoice of line items has no customer email: the address must be given.
    const items = ZInvoiceSchema.parse(
      (await t.http.post('/payg/invoices').set(owner.auth).send({ due_date: businessDay(Date.now() + 5 * DAY), line_items: [{ description: 'Licence', quantity: 2, unit_price: 10 }] }).expect(201)).body,
    );
    expect((await email(owner, items.invoice_id).expect(400)).body.errors[0]).toMatchObject({ field: 'to', message: 'is required: the invoice has no customer email' });

    await t.http.put(`/payg/invoices/${invoice.invoice_id}/status`).set(owner.auth).send({ status: 'cancelled' }).expect(200);
    expect((await email(owner, invoice.invoice_id).expect(409)).body.detail).toBe(`Invoice ${invoice.invoice_number} is cancelled: it is not sent`);

    expect(smtp.mails.length).toBe(before);
    const rows = await t.db.platform.invoice.findMany({ where: { id: { in: [invoice.invoice_id, items.invoice_id] } } });
    expect(rows.map((r) => r.emailed_at)).toEqual([null, null]);
  });

  it('says when the mail server did not take it (502, nothing recorded) and when email is not set up (409)', async () => {
    const invoice = await newInvoice();
    const down = await createTestApp({ databaseUrl: t.databaseUrl, env: { SMTP_URL: 'smtp://127.0.0.1:9' } });
    try {
      const r = await down.http.post(`/payg/invoices/${invoice.invoice_id}/email`).set(owner.auth).send({}).expect(502);
      expect(r.body.detail).toMatch(/^The mail server did not take the email: /);
    } finally {
      await down.close();
    }
    const bare = await createTestApp({ databaseUrl: t.databaseUrl, env: { SMTP_URL: '' } });
    try {
      const r = await bare.http.post(`/payg/invoices/${invoice.invoice_id}/email`).set(owner.auth).send({}).expect(409);
      expect(r.body.detail).toMatch(/^Email is not set up on this installation \(SMTP_URL\)/);
    } finally {
      await bare.close();
    }
    const row = await t.db.platform.invoice.findUniqueOrThrow({ where: { id: invoice.invoice_id } });
    expect(row).toMatchObject({ emailed_at: null, emailed_to: null, status: 'pending' });
  });
});
