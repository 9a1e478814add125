import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ZPaymentRequestsReplySchema, ZPortalLinkCreatedSchema, ZPortalPaymentReplySchema, ZPortalViewSchema, ZReportSchema, type MpesaExpressInput } from '@kidogo/contracts';
import { PORTAL_NOT_FOUND as NOT_FOUND_TEXT } from '../src/portal/portal.service.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { DARAJA_KEYS as KEYS, FakeDaraja } from './support/fake-daraja.js';
import { mpesaCode, seedCustomerWithDevice, seedRoles, type SeededUser } from './support/factories.js';

// Pay Now on the customer's own page (README "The customer's page"): the customer asks their own phone, the one on
// file, to pay for one of their devices; the request is an Ask to Pay request sent by nobody, recorded like any
// payment when the provider's result comes. Safaricom is played by a real HTTP server.

describe("Pay Now on the customer's page", () => {
  let t: TestApp;
  const daraja = new FakeDaraja();
  beforeAll(async () => {
    await daraja.start();
    t = await createTestApp({ env: { PUBLIC_URL: 'https://payg.example.com' } });
  });
  afterAll(async () => {
    await t?.close();
    await daraja.stop();
  });

  const setUp = (user: SeededUser, body: Partial<MpesaExpressInput> = {}) =>
    t.http.put('/payg/settings/mpesa-express').set(user.auth).send({ environment: 'sandbox', short_code: '174379', ...KEYS, ...body });
  const view = async (token: string) => ZPortalViewSchema.parse((await t.http.get(`/payg/portal/${token}`).expect(200)).body);
  const pay = (token: string, body: object) => t.http.post(`/payg/portal/${token}/payments`).send({ provider: 'mpesa_express', ...body });
  const follow = async (token: string, id: number) => ZPortalPaymentReplySchema.parse((await t.http.get(`/payg/portal/${token}/payments/${id}`).expect(200)).body).data;
  /** Safaricom's result for a request, posted where Kidogo told it to. */
  const result = async (requestId: number, code: number, amount: number) => {
    const { rows: [r] } = await t.db.pool.query(`SELECT checkout_request_id, callback_token FROM payment_requests WHERE request_id = $1`, [requestId]);
    const stkCallback: Record<string, unknown> = { CheckoutRequestID: r!.checkout_request_id, ResultCode: code, ResultDesc: code === 0 ? 'Processed' : 'Request cancelled by user' };
    if (code === 0) {
      stkCallback.CallbackMetadata = {
        Item: [
          { Name: 'Amount', Value: amount },
          { Name: 'MpesaReceiptNumber', Value: mpesaCode('TP') },
          { Name: 'PhoneNumber', Value: 254712345678 },
        ],
      };
    }
    await t.http.post(`/payg/external/mpesa-express/${r!.callback_token}`).send({ Body: { stkCallback } }).expect(200);
  };

  /** A Kenyan organization with M-Pesa Express set up (against the fake), a customer on a KES 50 a day plan, and their page's link. */
  const ready = async () => {
    const { org, owner, staff, superAdmin } = await seedRoles(t);
    await setUp(owner).expect(200);
    const list = await t.http.get('/payg/admin/payment-providers').query({ organization_id: org.id }).set(superAdmin.auth).expect(200);
    const row = (list.body.data as { id: number; provider: string; config: Record<string, unknown> }[]).find((p) => p.provider === 'mpesa_express')!;
    await t.http.put(`/payg/admin/payment-providers/${row.id}`).set(superAdmin.auth).send({ config: { ...row.config, base_url: daraja.url } }).expect(200);
    const { customer, item } = await seedCustomerWithDevice(t, org.id, {
      customer: { phone_contact: '0712 345 678', customer_name: 'Amina Wanjiru' },
      template: { daily_price: '50.00', currency: 'KES' },
    });
    const link = ZPortalLinkCreatedSchema.parse((await t.http.post(`/payg/customers/${customer.id}/portal-link`).set(staff.auth).expect(201)).body);
    return { org, owner, staff, customer, item, token: link.token };
  };

  it("prompts the customer's own phone and shows the page the payment and its code", async () => {
    const { org, owner, staff, customer, item, token } = await ready();
    const page = await view(token);
    expect(page.pay_with).toEqual([{ provider: 'mpesa_express', label: 'M-Pesa Express', currency: 'KES', decimals: false, max_amount: 250_000 }]);
    expect(page.phone_hint).toBe('••• 678');
    const views = (await t.db.db.customerPortalLink.findFirstOrThrow({ where: { organization_id: org.id, customer_id: customer.id } })).views;

    const sent = ZPortalPaymentReplySchema.parse((await pay(token, { serial_number: item.serial_number.toLowerCase(), amount: 350 }).expect(201)).body).data;
    expect(sent).toMatchObject({ serial_number: item.serial_number, provider: 'mpesa_express', label: 'M-Pesa Express', amount: '350.00', currency: 'KES', status: 'pending', days: null, token: null });
    // Safaricom was asked to prompt the phone on file, with the serial number as the account.
    const push = daraja.pushes[daraja.pushes.length - 1]!;
    expect(push.body).toMatchObject({ PhoneNumber: '254712345678', Amount: 350, AccountReference: item.serial_number.slice(0, 12) });
    // Sent by nobody, from the page: said so in the Activity Log. Paying and following it are not openings of the page (only the last view is).
    const stored = await t.db.db.paymentRequest.findFirstOrThrow({ where: { organization_id: org.id, id: sent.request_id } });
    expect(stored.requested_by).toBeNull();
    const audit = await t.db.platform.auditLog.findFirstOrThrow({ where: { organization_id: org.id, action: 'payment_request.sent' } });
    expect(audit).toMatchObject({ actor_user_id: null, actor_username: null });
    expect(audit.description).toBe(`Amina Wanjiru asked from their own page for 254712345678 to pay KES 350 for ${item.serial_number} by M-Pesa Express`);

    expect((await follow(token, sent.request_id)).status).toBe('pending');
    await result(sent.request_id, 0, 350);
    const paid = await follow(token, sent.request_id);
    expect(paid).toMatchObject({ status: 'paid', days: 7 });
    expect(paid.token).toMatch(/^\d{3}( \d{3})+$/);
    const after = await view(token);
    expect(after.payments[0]).toMatchObject({ amount: '350.00', days: 7, serial_number: item.serial_number });
    expect(after.codes[0]!.token).toBe(paid.token);
    expect((await t.db.db.customerPortalLink.findFirstOrThrow({ where: { organization_id: org.id, customer_id: customer.id } })).views).toBe(views + 1);

    // Staff see it with the device's requests, sent from the customer's page, and so does the Ask to Pay report.
    const list = ZPaymentRequestsReplySchema.parse((await t.http.get('/payg/payment-requests').query({ customer_id: customer.id }).set(staff.auth).expect(200)).body);
    expect(list.data.items.map((r) => [r.status, r.requested_by, r.from_customer_page])).toEqual([['paid', null, true]]);
    const report = ZReportSchema.parse((await t.http.post('/payg/reports/page').set(owner.auth).send({ report: 'payment_requests' }).expect(200)).body);
    expect(report.rows).toEqual([expect.objectContaining({ sent_by: '(the customer: page or USSD)', paid_with: 'M-Pesa Express', requests: 1, paid: 1, paid_amount: '350.00' })]);
  });

  it("keeps to the customer's own devices and requests, one waiting at a time, and refuses bad input", async () => {
    const { org, item, token } = await ready();
    const other = await seedCustomerWithDevice(t, org.id, { customer: { phone_contact: '0722 000 111' } });
    const refused = async (body: object, status: number, message: string | RegExp) => {
      const res = await pay(token, { serial_number: item.serial_number, amount: 100, ...body }).expect(status);
      if (typeof message === 'string') expect(res.body.message).toBe(message);
      else expect(res.body.message).toMatch(message);
    };
    await refused({ serial_number: other.item.serial_number }, 404, 'Device not found');
    await refused({ amount: 10.5 }, 400, 'amount: must be whole shillings (M-Pesa Express takes no cents)');
    await refused({ provider: 'cash' }, 400, 'provider: must be one of mpesa_express, mtn_momo, airtel_money');
    await refused({ phone_number: '0733 000 000' }, 400, /phone_number/);
    expect(await t.db.db.paymentRequest.count({ where: { organization_id: org.id } })).toBe(0);

    const first = ZPortalPaymentReplySchema.parse((await pay(token, { serial_number: item.serial_number, amount: 100 }).expect(201)).body).data;
    await refused({}, 409, /is still waiting for the customer/);
    // Another customer's request is not this page's to follow; a link that does not work is the page's one 404.
    const staffRequest = await t.db.pool.query(
      `INSERT INTO payment_requests (organization_id, item_id, customer_id, phone_number, amount, callback_token, requested_by)
       VALUES ($1, $2, $3, '254722000111', 20, $4, NULL) RETURNING request_id`,
      [org.id, other.item.id, other.customer.id, `cbother${first.request_id}`.padEnd(32, '0')],
    );
    await t.http.get(`/payg/portal/${token}/payments/${staffRequest.rows[0].request_id}`).expect(404);
    const gone = await t.http.get(`/payg/portal/${'x'.repeat(43)}/payments/${first.request_id}`).expect(404);
    expect(gone.body.message).toBe(NOT_FOUND_TEXT);
    await t.http.post(`/payg/portal/${'x'.repeat(43)}/payments`).send({ serial_number: item.serial_number, provider: 'mpesa_express', amount: 50 }).expect(404);

    // A device paid off needs nothing more.
    await t.db.pool.query(`UPDATE payment_requests SET status = 'failed' WHERE organization_id = $1`, [org.id]);
    await t.db.pool.query(`UPDATE items SET paid_off_at = now() WHERE item_id = $1`, [item.id]);
    await refused({}, 409, `Device ${item.serial_number} is paid off: it needs no more payments`);
  });

  it('lets a page ask at most 5 times an hour', async () => {
    const { org, item, token } = await ready();
    for (let i = 0; i < 5; i++) {
      await pay(token, { serial_number: item.serial_number, amount: 50 + i }).expect(201);
      // Each answered (the customer cancelled), so the device may be asked again.
      await t.db.pool.query(`UPDATE payment_requests SET status = 'cancelled' WHERE organization_id = $1`, [org.id]);
    }
    const res = await pay(token, { serial_number: item.serial_number, amount: 60 }).expect(429);
    expect(res.body.message).toMatch(/^At most 5 payments can be asked for from this page in an hour: try again in \d+ minutes$/);
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(60);
    expect(await t.db.db.paymentRequest.count({ where: { organization_id: org.id } })).toBe(5);
  });

  it('offers no paying when no provider is ready or the phone on file cannot be prompted', async () => {
    const { org, owner, customer, item, token } = await ready();
    await setUp(owner, { is_active: false }).expect(200);
    expect((await view(token)).pay_with).toEqual([]);
    expect((await pay(token, { serial_number: item.serial_number, amount: 100 }).expect(409)).body.message).toMatch(/^M-Pesa Express is switched off/);
    await setUp(owner).expect(200);
    expect((await view(token)).pay_with).toHaveLength(1);
    // A Ugandan number: not one M-Pesa Express can prompt.
    await t.db.pool.query(`UPDATE customers SET phone_contact = '+256772123456' WHERE organization_id = $1 AND customer_id = $2`, [org.id, customer.id]);
    expect(await view(token)).toMatchObject({ pay_with: [], phone_hint: '••• 456' });
    await t.db.pool.query(`UPDATE customers SET phone_contact = '' WHERE organization_id = $1 AND customer_id = $2`, [org.id, customer.id]);
    expect(await view(token)).toMatchObject({ pay_with: [], phone_hint: null });
  });
});
