import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ZCreditCheckSchema, ZFollowOnSettingsSchema, ZItemAssignReplySchema } from '@kidogo/contracts';
import { createTestApp, type TestApp } from './support/test-app.js';
import { README_PLAN, payCash } from './support/plans.js';
import { seedCustomer, seedCustomerWithDevice, seedItem, seedTenant, seedUser, type SeededUser } from './support/factories.js';

const DAY_MS = 86_400_000;

/**
 * The follow-on sales rule (README "Follow-on sales"): a customer behind on
 * the devices they hold is not given another on credit unless an owner or
 * admin gives it with a reason, which the activity log keeps; the same check
 * on POST /items/assign and POST /onboarding, read beforehand from
 * GET /customers/{id}/credit-check.
 */
describe('follow-on sales rule', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const check = async (user: SeededUser, customerId: number) =>
    ZCreditCheckSchema.parse((await t.http.get(`/payg/customers/${customerId}/credit-check`).set(user.auth).expect(200)).body);
  const setRule = (user: SeededUser, body: Record<string, unknown>) => t.http.put('/payg/settings/follow-on-sales').set(user.auth).send(body);
  const assign = (user: SeededUser, customerId: number, serial: string, extra: Record<string, unknown> = {}) =>
    t.http.post('/payg/items/assign').set(user.auth).send({ customer_id: customerId, item_serial_number: serial, ...extra });
  const holder = async (orgId: string, itemId: number) =>
    (await t.db.db.item.findUniqueOrThrow({ where: { organization_id_id: { organization_id: orgId, id: itemId } }, select: { customer_id: true } })).customer_id;

  /** A customer on the README's plan with a device given `days` days (and an hour) ago and `paid` paid on it. */
  async function customerPaying(user: SeededUser, orgId: string, days: number, paid: string, name: string) {
    const { customer, item } = await seedCustomerWithDevice(t, orgId, { template: README_PLAN, customer: { customer_name: name } });
    await payCash(t, user, item.serial_number, paid);
    await t.db.db.item.update({
      where: { organization_id_id: { organization_id: orgId, id: item.id } },
      data: { assigned_at: new Date(Date.now() - days * DAY_MS - 3_600_000) },
    });
    return { customer, item };
  }

  it('gives devices to everyone until the organization sets a rule, and says where each customer stands', async () => {
    const { user, org } = await seedTenant(t);
    expect(ZFollowOnSettingsSchema.parse((await t.http.get('/payg/settings/follow-on-sales').set(user.auth).expect(200)).body)).toEqual({
      rule: 'any',
      refuse_repossessed: false,
    });
    // 100 days: 6,350 expected, 2,200 paid: 34.6 %, far behind.
    const { customer } = await customerPaying(user, org.id, 100, '2200.00', 'Achieng Otieno');
    expect(await check(user, customer.id)).toEqual({
      customer_id: customer.id,
      customer_name: 'Achieng Otieno',
      devices: 1,
      repayment: { expected_by_today: '6350.00', paid_towards: '2200.00', repaid_share: 34.6, standing: 'far_behind' },
      repossessions: 0,
      rule: 'any',
      refuse_repossessed: false,
      allowed: true,
      reasons: [],
    });
    const next = await seedItem(t, org.id, {});
    ZItemAssignReplySchema.parse((await assign(user, customer.id, next.serial_number).expect(200)).body);
    expect(await holder(org.id, next.id)).toBe(customer.id);
  });

  it('refuses a customer behind the rule, changing nothing, and lets an owner or admin give it with a reason', async () => {
    const { user: owner, org } = await seedTenant(t);
    const staff = await seedUser(t, { organization_id: org.id, role: 'staff' });
    const admin = await seedUser(t, { organization_id: org.id, role: 'admin' });
    // Staff read the rule but do not set it.
    await setRule(staff, { rule: 'on_track' }).expect(403);
    const set = ZFollowOnSettingsSchema.parse((await setRule(owner, { rule: 'on_track' }).expect(200)).body);
    expect(set).toEqual({ rule: 'on_track', refuse_repossessed: false });
    expect(ZFollowOnSettingsSchema.parse((await t.http.get('/payg/settings/follow-on-sales').set(staff.auth).expect(200)).body)).toEqual(set);

    // The organization's CRM hears of each device given.
    await t.http.post('/payg/webhooks').set(owner.auth).send({ url: 'https://crm.example.com/hook', events: ['device.assigned'] }).expect(201);
    // 40 days: 3,350 expected, 2,200 paid: 65.7 %, behind.
    const { customer } = await customerPaying(owner, org.id, 40, '2200.00', 'Baraka Mwangi');
    const refused = await check(staff, customer.id);
    expect(refused).toMatchObject({ devices: 1, rule: 'on_track', allowed: false, repayment: { standing: 'behind', repaid_share: 65.7 } });
    expect(refused.reasons).toEqual([
      'Baraka Mwangi is Behind: paid 2,200.00 of the 3,350.00 their plans expect by today (65.7%). This organization gives another device only to customers Paid off or On track.',
    ]);

    const lamp = await seedItem(t, org.id, {});
    const before = await t.db.db.item.findUniqueOrThrow({ where: { organization_id_id: { organization_id: org.id, id: lamp.id } } });
    for (const [user, body] of [
      [staff, {}],
      [owner, {}],
      [owner, { override_reason: '   ' }],
    ] as const) {
      const res = await assign(user, customer.id, lamp.serial_number, body).expect(409);
      expect(res.body.detail).toBe(`customer_id: ${refused.reasons[0]} An owner or admin can give it anyway with a reason (override_reason).`);
    }
    // Onboarding is refused the same, the plan with it.
    const onboard = (user: SeededUser, extra: Record<string, unknown> = {}) =>
      t.http.post('/payg/onboarding').set(user.auth).send({ customer_id: customer.id, item_serial_number: lamp.serial_number, ...extra });
    expect((await onboard(owner).expect(409)).body.detail).toMatch(/^customer_id: Baraka Mwangi is Behind/);
    // Staff cannot give it anyway.
    expect((await onboard(staff, { override_reason: 'Good customer' }).expect(403)).body.detail).toBe(
      'override_reason: only an owner or admin can give a device against the follow-on sales rule',
    );
    expect(await t.db.db.item.findUniqueOrThrow({ where: { organization_id_id: { organization_id: org.id, id: lamp.id } } })).toEqual(before);
    expect(await t.db.db.itemAssignment.count({ where: { organization_id: org.id, item_id: lamp.id } })).toBe(0);
    await t.http.post('/payg/items/assign').set(owner.auth).send({ customer_id: customer.id, item_serial_number: lamp.serial_number, override_reason: 'x'.repeat(501) }).expect(400);

    // An admin gives it anyway; the activity log keeps why.
    const given = await assign(admin, customer.id, lamp.serial_number, { override_reason: 'Paid the arrears in cash at the shop' }).expect(200);
    expect(ZItemAssignReplySchema.parse(given.body).changed).toBe(true);
    expect(await holder(org.id, lamp.id)).toBe(customer.id);
    const entry = await t.db.platform.auditLog.findFirstOrThrow({ where: { organization_id: org.id, action: 'item.assigned_against_rule' } });
    expect(entry).toMatchObject({
      entity_id: lamp.serial_number,
      description: `Gave device ${lamp.serial_number} to Baraka Mwangi against the follow-on sales rule: Paid the arrears in cash at the shop`,
      metadata: { customer_id: customer.id, reason: 'Paid the arrears in cash at the shop', rule: 'on_track', standing: 'behind', repaid_share: 65.7, repossessions: 0 },
    });
    expect(await t.db.platform.auditLog.count({ where: { organization_id: org.id, action: 'follow_on.update' } })).toBe(1);
    // ...and the webhook event says why.
    const events = await t.db.platform.webhookDelivery.findMany({ where: { organization_id: org.id, event_type: 'device.assigned' }, select: { payload: true } });
    const sent = events.map((e) => (e.payload as { data: { serial_number: string; override_reason: string | null } }).data);
    expect(sent.find((d) => d.serial_number === lamp.serial_number)?.override_reason).toBe('Paid the arrears in cash at the shop');
    expect(sent.filter((d) => d.serial_number !== lamp.serial_number).every((d) => d.override_reason === null)).toBe(true);

    // The same device given back to the same customer after a mistaken unassign is no sale: not checked.
    await t.http.post('/payg/items/unassign').set(owner.auth).send({ item_serial_number: lamp.serial_number }).expect(200);
    await assign(staff, customer.id, lamp.serial_number).expect(200);

    // A customer on track (40 days: 3,100 of the 3,350 expected, 92.5 %) passes.
    const on = await customerPaying(owner, org.id, 40, '3100.00', 'Chebet Kiprop');
    expect(await check(staff, on.customer.id)).toMatchObject({ allowed: true, reasons: [], repayment: { standing: 'on_track', repaid_share: 92.5 } });
    const radio = await seedItem(t, org.id, {});
    await assign(staff, on.customer.id, radio.serial_number).expect(200);
    // A customer holding nothing has no standing: a first sale passes.
    const newcomer = await seedCustomer(t, org.id, { customer_name: 'Dalmas Ouma' });
    expect(await check(staff, newcomer.id)).toMatchObject({ devices: 0, allowed: true, repayment: { standing: null } });
    await t.http.post('/payg/onboarding').set(staff.auth).send({ customer_id: newcomer.id, item_serial_number: (await seedItem(t, org.id, {})).serial_number }).expect(200);
  });

  it('with "behind", refuses only customers far behind; with refuse_repossessed, customers repossessed from', async () => {
    const { user, org } = await seedTenant(t);
    await setRule(user, { rule: 'behind' }).expect(200);
    const behind = await customerPaying(user, org.id, 40, '2200.00', 'Esther Wanjiku');
    const far = await customerPaying(user, org.id, 100, '2200.00', 'Fredrick Otieno');
    expect(await check(user, behind.customer.id)).toMatchObject({ allowed: true, repayment: { standing: 'behind' } });
    const farCheck = await check(user, far.customer.id);
    expect(farCheck.allowed).toBe(false);
    expect(farCheck.reasons[0]).toBe(
      'Fredrick Otieno is Far behind: paid 2,200.00 of the 6,350.00 their plans expect by today (34.6%). This organization gives another device only to customers Paid off, On track or Behind.',
    );

    // The far-behind customer's device is repossessed: they hold nothing now, so the standing passes them...
    await t.http.post('/payg/items/repossess').set(user.auth).send({ item_serial_number: far.item.serial_number, reason: 'Stopped paying', lock: false }).expect(200);
    expect(await check(user, far.customer.id)).toMatchObject({ devices: 0, repossessions: 1, allowed: true, repayment: { standing: null } });
    // ...unless the organization refuses customers it repossessed from.
    expect(ZFollowOnSettingsSchema.parse((await setRule(user, { refuse_repossessed: true }).expect(200)).body)).toEqual({ rule: 'behind', refuse_repossessed: true });
    const refused = await check(user, far.customer.id);
    expect(refused).toMatchObject({ allowed: false, reasons: ['Fredrick Otieno had a device repossessed. This organization gives no more devices to customers it repossessed from.'] });
    const lamp = await seedItem(t, org.id, {});
    await assign(user, far.customer.id, lamp.serial_number).expect(409);
    await assign(user, far.customer.id, lamp.serial_number, { override_reason: 'Came back with a guarantor' }).expect(200);
  });

  it('names a bad setting, and keeps each organization to its own customers and rule', async () => {
    const { user, org } = await seedTenant(t);
    const bad = await setRule(user, { rule: 'strict' }).expect(400);
    expect(JSON.stringify(bad.body)).toContain('rule');
    expect(JSON.stringify(bad.body)).toContain('must be one of any, behind, on_track');
    const flag = await setRule(user, { refuse_repossessed: 'yes' }).expect(400);
    expect(JSON.stringify(flag.body)).toContain('refuse_repossessed');
    await setRule(user, { rules: 'any' }).expect(400);
    expect(ZFollowOnSettingsSchema.parse((await t.http.get('/payg/settings/follow-on-sales').set(user.auth).expect(200)).body).rule).toBe('any');

    // Organization B's rule is not A's, and B cannot read A's customer.
    const b = await seedTenant(t);
    await setRule(b.user, { rule: 'on_track' }).expect(200);
    const { customer } = await customerPaying(user, org.id, 100, '2200.00', 'Grace Njeri');
    expect(await check(user, customer.id)).toMatchObject({ rule: 'any', allowed: true });
    await t.http.get(`/payg/customers/${customer.id}/credit-check`).set(b.user.auth).expect(404);
    await t.http.get('/payg/customers/abc/credit-check').set(user.auth).expect(400);
  });
});
