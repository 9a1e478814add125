import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { PORTAL_LIST_MAX, ZPortalLinkCreatedSchema, ZPortalLinkReplySchema, ZPortalViewSchema } from '@kidogo/contracts';
import { createTestApp, type TestApp } from './support/test-app.js';
import { binaryParser, pdfText } from './support/pdf.js';
import { seedCustomer, seedCustomerWithDevice, seedTenant, seedUser } from './support/factories.js';

// The customer's own page (README "The customer's page"): staff make a link,
// the customer opens it without signing in and sees their devices, what is
// left to pay, their last payments and codes; nothing of anyone else's.

const NOT_AVAILABLE = 'This page is not available: the link may have expired. Ask for a new one.';

describe("the customer's own page", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { PUBLIC_URL: 'https://payg.example.test' } });
  });
  afterAll(() => t.close());

  const page = (token: string) => t.http.get(`/payg/portal/${token}`);

  /** An organization with a customer on a plan who paid twice, by the pipeline, with their codes. */
  async function payingCustomer() {
    const tenant = await seedTenant(t);
    const staff = await seedUser(t, { organization_id: tenant.org.id, role: 'staff' });
    await t.db.db.organization.update({ where: { id: tenant.org.id }, data: { name: 'Jua Power Ltd', agreement_paybill: '555000' } });
    const s = await seedCustomerWithDevice(t, tenant.org.id, {
      customer: { customer_name: 'Amina Wanjiru Otieno', id_number: `ID-${tenant.org.id}`, phone_contact: '0712 345 678' },
      template: { daily_price: '50.00', deposit_made: '0.00', activation_price: '0.00', free_code_price: '10000.00' },
    });
    for (const amount of [100, 150]) {
      await t.http.post('/payg/payments').set(staff.auth).send({ serial_number: s.item.serial_number, amount, payment_method: 'cash' }).expect(201);
    }
    return { ...tenant, staff, ...s };
  }

  it('shows the customer their devices, what is left, their last payments and codes, by a link staff make', async () => {
    const { org, staff, customer, item } = await payingCustomer();
    expect(ZPortalLinkReplySchema.parse((await t.http.get(`/payg/customers/${customer.id}/portal-link`).set(staff.auth).expect(200)).body)).toEqual({ link: null });

    const made = ZPortalLinkCreatedSchema.parse((await t.http.post(`/payg/customers/${customer.id}/portal-link`).set(staff.auth).expect(201)).body);
    expect(made.url).toBe(`https://payg.example.test/my/${made.token}`);
    expect(made.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(made.link).toMatchObject({ created_by: staff.username, expired: false, views: 0, last_viewed_at: null });
    expect(Date.parse(made.link.expires_at) - Date.parse(made.link.created_at)).toBe(30 * 86_400_000);
    // Only the token's sha256 is kept.
    const stored = await t.db.db.customerPortalLink.findUniqueOrThrow({ where: { organization_id_customer_id: { organization_id: org.id, customer_id: customer.id } } });
    expect(stored.token_hash).not.toContain(made.token);
    expect(stored.token_hash).toMatch(/^[0-9a-f]{64}$/);

    // Opened without signing in; kept by no cache.
    const opened = await page(made.token).expect(200);
    expect(opened.headers['cache-control']).toBe('no-store');
    const view = ZPortalViewSchema.parse(opened.body);
    expect(view).toMatchObject({ organization_name: 'Jua Power Ltd', language: 'en', paybill: '555000', first_name: 'Amina' });
    expect(view.devices).toEqual([
      expect.objectContaining({ serial_number: item.serial_number, state: 'on', total_paid: '250.00', remaining: '9750.00', currency: 'KES', daily_price: '50.00' }),
    ]);
    expect(view.devices[0]!.days_left).toBeGreaterThanOrEqual(4);
    expect(view.payments.map((p) => [p.amount, p.days, p.serial_number])).toEqual([
      ['150.00', 3, item.serial_number],
      ['100.00', 2, item.serial_number],
    ]);
    expect(view.codes).toHaveLength(2);
    expect(view.codes[0]).toMatchObject({ serial_number: item.serial_number, days: 3 });
    expect(view.codes[0]!.token).toMatch(/^\d{3}( \d{1,3})+$/);
    // Nothing of the customer beyond their first name: not the phone, the ID number, nor the whole name.
    const body = JSON.stringify(view);
    for (const secret of ['Wanjiru', '0712', '345 678', `ID-${org.id}`, org.id]) expect(body).not.toContain(secret);

    // Their statement, by the same link, in their language.
    const pdf = await t.http.get(`/payg/portal/${made.token}/statement`).buffer(true).parse(binaryParser).expect(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['cache-control']).toBe('no-store');
    expect(pdf.headers['content-disposition']).toMatch(/^attachment; filename="statement-\d{4}-\d{2}-\d{2}\.pdf"$/);
    const text = pdfText(pdf.body as Buffer);
    if (text !== null) {
      expect(text).toContain('Statement of account');
      expect(text).toContain(item.serial_number);
    }

    // Staff see it was opened.
    const state = ZPortalLinkReplySchema.parse((await t.http.get(`/payg/customers/${customer.id}/portal-link`).set(staff.auth).expect(200)).body);
    expect(state.link).toMatchObject({ views: 2, expired: false });
    expect(state.link!.last_viewed_at).not.toBeNull();
    const audit = await t.db.platform.auditLog.findFirstOrThrow({ where: { organization_id: org.id, action: 'customer.portal_link_created' } });
    expect(audit).toMatchObject({ actor_username: staff.username, entity_type: 'customer', entity_id: String(customer.id) });
  });

  it('lists the last 10 payments and codes, newest first', async () => {
    const { org, staff, customer, item } = await payingCustomer();
    for (let i = 0; i < 10; i++) {
      await t.http.post('/payg/payments').set(staff.auth).send({ serial_number: item.serial_number, amount: 50, payment_method: 'cash' }).expect(201);
    }
    const made = ZPortalLinkCreatedSchema.parse((await t.http.post(`/payg/customers/${customer.id}/portal-link`).set(staff.auth).expect(201)).body);
    const view = ZPortalViewSchema.parse((await page(made.token).expect(200)).body);
    expect(view.payments).toHaveLength(PORTAL_LIST_MAX);
    // The codes the device still takes, newest first (an older one it would refuse is left out).
    const valid = await t.db.db.tokenLog.findMany({
      where: { organization_id: org.id, item_id: item.id, is_valid: true },
      orderBy: [{ created_at: 'desc' }, { id: 'desc' }],
      take: PORTAL_LIST_MAX,
    });
    expect(valid.length).toBeGreaterThan(0);
    expect(view.codes.map((c) => c.token.replace(/ /g, ''))).toEqual(valid.map((v) => v.token_value));
    expect(view.payments.every((p) => p.amount === '50.00')).toBe(true);
    expect(view.devices[0]!.total_paid).toBe('750.00');
  });

  it('answers the same 404 for a link replaced, stopped, expired, of a suspended organization or of an erased customer', async () => {
    const { org, user, staff, customer } = await payingCustomer();
    const make = async () => ZPortalLinkCreatedSchema.parse((await t.http.post(`/payg/customers/${customer.id}/portal-link`).set(staff.auth).expect(201)).body).token;
    const first = await make();
    const second = await make();
    expect((await page(first).expect(404)).body.detail).toBe(NOT_AVAILABLE);
    expect((await t.http.get(`/payg/portal/${first}/statement`).expect(404)).body.detail).toBe(NOT_AVAILABLE);
    await page(second).expect(200);
    await page('no-such-link-at-all-anywhere-000').expect(404);
    expect((await page('short').expect(400)).body.errors[0]).toMatchObject({ field: 'token' });

    await t.db.db.customerPortalLink.update({
      where: { organization_id_customer_id: { organization_id: org.id, customer_id: customer.id } },
      data: { expires_at: new Date(Date.now() - 1000) },
    });
    expect((await page(second).expect(404)).body.detail).toBe(NOT_AVAILABLE);
    expect(ZPortalLinkReplySchema.parse((await t.http.get(`/payg/customers/${customer.id}/portal-link`).set(staff.auth).expect(200)).body).link?.expired).toBe(true);

    const third = await make();
    await t.db.db.organization.update({ where: { id: org.id }, data: { status: 'suspended' } });
    expect((await page(third).expect(404)).body.detail).toBe(NOT_AVAILABLE);
    await t.db.db.organization.update({ where: { id: org.id }, data: { status: 'active' } });
    await page(third).expect(200);

    // Stopped by staff: audited; stopping it again is a 404.
    expect((await t.http.delete(`/payg/customers/${customer.id}/portal-link`).set(staff.auth).expect(200)).body.message).toBe('Link stopped: it no longer opens the page');
    await page(third).expect(404);
    await t.http.delete(`/payg/customers/${customer.id}/portal-link`).set(staff.auth).expect(404);
    expect(await t.db.platform.auditLog.count({ where: { organization_id: org.id, action: 'customer.portal_link_revoked' } })).toBe(1);

    // Erasing a customer's personal data (one who owes nothing) ends their link, and no new one can be made.
    const leaving = await seedCustomer(t, org.id, { customer_name: 'Leaving Soon' });
    const theirs = ZPortalLinkCreatedSchema.parse((await t.http.post(`/payg/customers/${leaving.id}/portal-link`).set(staff.auth).expect(201)).body).token;
    await page(theirs).expect(200);
    await t.http.post(`/payg/customers/${leaving.id}/erase`).set(user.auth).send({ reason: 'Asked to be forgotten' }).expect(200);
    await page(theirs).expect(404);
    expect(await t.db.db.customerPortalLink.count({ where: { organization_id: org.id, customer_id: leaving.id } })).toBe(0);
    expect((await t.http.post(`/payg/customers/${leaving.id}/portal-link`).set(staff.auth).expect(409)).body.detail).toBe(
      "This customer's personal data was erased: there is nothing to show them",
    );
  });

  it("keeps each organization's customers to itself", async () => {
    const a = await payingCustomer();
    const b = await seedTenant(t);
    await t.http.get(`/payg/customers/${a.customer.id}/portal-link`).set(b.user.auth).expect(404);
    await t.http.post(`/payg/customers/${a.customer.id}/portal-link`).set(b.user.auth).expect(404);
    await t.http.delete(`/payg/customers/${a.customer.id}/portal-link`).set(b.user.auth).expect(404);
    expect(await t.db.db.customerPortalLink.count({ where: { organization_id: a.org.id } })).toBe(0);
    // Without PUBLIC_URL the link is the web app's to complete.
    const bare = await createTestApp({ databaseUrl: t.databaseUrl, env: { PUBLIC_URL: '' } });
    try {
      const made = ZPortalLinkCreatedSchema.parse((await bare.http.post(`/payg/customers/${a.customer.id}/portal-link`).set(a.staff.auth).expect(201)).body);
      expect(made.url).toBeNull();
      await bare.http.get(`/payg/portal/${made.token}`).expect(200);
    } finally {
      await bare.close();
    }
  });
});
