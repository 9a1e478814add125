import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  ZCustomerStatusReplySchema,
  ZDeviceActivitySchema,
  ZItemTransferReplySchema,
  ZReportSchema,
  type ItemTransferReply,
} from '@kidogo/contracts';
import { createTestApp, type TestApp } from './support/test-app.js';
import { binaryParser, bodyBytes, pdfText } from './support/pdf.js';
import { README_PLAN, SECOND_PLAN, payCash } from './support/plans.js';
import { seedCustomer, seedCustomerWithDevice, seedItem, seedTemplate, seedTenant, seedUser, type SeededUser } from './support/factories.js';

// POST /payg/items/transfer (README "Account transfers"): a device's account
// passes to another customer, who takes over its payments.

describe('transferring an account', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const transfer = (user: SeededUser, body: object) => t.http.post('/payg/items/transfer').set(user.auth).send(body);
  const item = (orgId: string, id: number) => t.db.db.item.findUniqueOrThrow({ where: { organization_id_id: { organization_id: orgId, id } } });
  const activity = async (user: SeededUser, serial: string) =>
    ZDeviceActivitySchema.parse((await t.http.get(`/payg/devices/${serial}/activity`).set(user.auth).expect(200)).body).data.device_info;
  const status = async (user: SeededUser, customerId: number) =>
    ZCustomerStatusReplySchema.parse((await t.http.get(`/payg/customers/${customerId}/status`).set(user.auth).expect(200)).body);

  /** A customer on the README plan whose device took 2,400 (activated, 21 days), and another customer to take it over. */
  async function paying() {
    const { user, org } = await seedTenant(t);
    const s = await seedCustomerWithDevice(t, org.id, { template: README_PLAN, item: { price: '20000.00' } });
    // The day the account began, as Assign writes it: on the device and its assignment alike.
    const { assigned_at } = await item(org.id, s.item.id);
    await t.db.db.itemAssignment.updateMany({ where: { organization_id: org.id, item_id: s.item.id }, data: { assigned_at: assigned_at! } });
    const paid = await payCash(t, user, s.item.serial_number, '2400.00');
    const heir = await seedCustomer(t, org.id, { customer_name: 'Joseph Heir' });
    return { user, org, ...s, paid, heir };
  }

  it('passes the account as it is, with its plan, to the new holder: no code, no new account', async () => {
    const d = await paying();
    await t.http.post('/payg/webhooks').set(d.user.auth).send({ url: 'https://crm.example.com/hook', events: ['device.transferred'] }).expect(201);
    const before = await item(d.org.id, d.item.id);
    const reply: ItemTransferReply = ZItemTransferReplySchema.parse(
      (await transfer(d.user, { item_serial_number: d.item.serial_number, customer_id: d.heir.id, reason: ' The customer died; his son pays on ' }).expect(201)).body,
    );
    expect(reply).toMatchObject({
      message: `Device ${d.item.serial_number}'s account transferred from ${d.customer.customer_name} to Joseph Heir`,
      from: { customer_id: d.customer.id, customer_name: d.customer.customer_name },
      to: { customer_id: d.heir.id, customer_name: 'Joseph Heir' },
      paid_before: '2400.00',
      template_id: d.template.id,
      template_name: d.template.template_name,
      item: { customer_id: d.heir.id, customer_name: 'Joseph Heir', total_paid: '2400.00', status: 'assigned', is_assigned: true },
    });

    // The account did not move or restart: the same figures, the same day it began, the same count (no code issued).
    const after = await item(d.org.id, d.item.id);
    expect(after).toMatchObject({
      customer_id: d.heir.id,
      total_paid: before.total_paid,
      credit: before.credit,
      credit_until: before.credit_until,
      activated_at: before.activated_at,
      assigned_at: before.assigned_at,
      token_count: before.token_count,
    });
    expect(await t.db.db.tokenLog.count({ where: { organization_id: d.org.id, item_id: d.item.id } })).toBe(1);

    // The device's page: on the same plan, now the device's own, and where the account came from.
    const info = await activity(d.user, d.item.serial_number);
    expect(info).toMatchObject({ customer_id: d.heir.id, customer_name: 'Joseph Heir', total_paid: '2400.00' });
    expect(info.payment_plan).toMatchObject({ template_id: d.template.id, own: true });
    expect(info.transferred).toEqual({
      from_customer_id: d.customer.id,
      from_customer_name: d.customer.customer_name,
      paid: '2400.00',
      transferred_at: expect.any(String),
      transferred_by: d.user.username,
      reason: 'The customer died; his son pays on',
    });
    expect(info.brought_over).toBeNull();

    // The new holder's totals: the device and what was paid on it before them, which is no payment of theirs.
    const heir = await status(d.user, d.heir.id);
    expect(heir).toMatchObject({ paid_before: '2400.00', total_paid: '0.00', payments_count: 0 });
    expect(heir.devices.map((x) => x.serial_number)).toEqual([d.item.serial_number]);
    expect((await status(d.user, d.customer.id)).devices).toEqual([]);
    // Their statement says what its Paid includes.
    const pdf = await t.http.get(`/payg/customers/${d.heir.id}/statement`).set(d.user.auth).buffer(true).parse(binaryParser).expect(200);
    const escaped = (x: string) => x.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    expect(pdfText(bodyBytes(pdf))?.replace(/\s+/g, ' ')).toMatch(
      new RegExp(`${escaped(d.item.serial_number)}: its account was taken over from ${escaped(d.customer.customer_name)} on \\d{4}-\\d{2}-\\d{2}; Paid includes the 2,400\\.00 paid on it before\\.`),
    );

    // Audited, and told to the webhooks.
    const audit = await t.db.platform.auditLog.findFirstOrThrow({ where: { organization_id: d.org.id, action: 'item.account_transferred' } });
    expect(audit.description).toBe(
      `Transferred device ${d.item.serial_number}'s account from ${d.customer.customer_name} to Joseph Heir (total paid 2400.00): The customer died; his son pays on`,
    );
    const [event] = await t.db.platform.webhookDelivery.findMany({ where: { organization_id: d.org.id, event_type: 'device.transferred' }, select: { payload: true } });
    expect((event!.payload as { data: unknown }).data).toMatchObject({
      serial_number: d.item.serial_number,
      from_customer_id: d.customer.id,
      to_customer_id: d.heir.id,
      total_paid: '2400.00',
      paid_off: false,
      template_id: d.template.id,
    });

    // The next payment is the new holder's, on the account as it was: 250 more buys 5 days on top.
    const next = await payCash(t, d.user, d.item.serial_number, '250.00');
    expect(next).toMatchObject({ days: 5 });
    const payment = await t.db.db.payment.findUniqueOrThrow({ where: { organization_id_id: { organization_id: d.org.id, id: next.payment_id! } } });
    expect(payment.customer_id).toBe(d.heir.id);
    expect((await item(d.org.id, d.item.id)).total_paid.toFixed(2)).toBe('2650.00');
    expect((await status(d.user, d.heir.id)).paid_before).toBe('2400.00');

    // No sale: the Agent and Portfolio reports count the one account (the first holder's, in its month).
    const agents = ZReportSchema.parse((await t.http.post('/payg/reports/page').set(d.user.auth).send({ report: 'agents' }).expect(200)).body);
    expect(agents.totals.devices_given).toBe(1);
    const portfolio = ZReportSchema.parse((await t.http.post('/payg/reports/page').set(d.user.auth).send({ report: 'portfolio' }).expect(200)).body);
    expect(portfolio.totals).toMatchObject({ accounts: 1, contract_value: '20000.00', collected: '2650.00', paid_off: 0 });
  });

  it('keeps a device plan of its own with the account, and the account goes on when given back to its new holder', async () => {
    const d = await paying();
    const own = await seedTemplate(t, d.org.id, SECOND_PLAN);
    await t.http.post('/payg/payments/templates/assign').set(d.user.auth).send({ customer_id: d.customer.id, template_id: own.id, serial_number: d.item.serial_number }).expect(200);
    // The heir has a plan of their own for their devices: the device keeps the one it was paid on.
    const heirs = await seedTemplate(t, d.org.id, { daily_price: '10.00' });
    await t.db.db.templateAssignment.create({ data: { organization_id: d.org.id, customer_id: d.heir.id, template_id: heirs.id, is_active: true } });
    const before = await item(d.org.id, d.item.id);

    const reply = ZItemTransferReplySchema.parse(
      (await transfer(d.user, { item_serial_number: d.item.serial_number, customer_id: d.heir.id, reason: 'Sold it on' }).expect(201)).body,
    );
    expect(reply.template_id).toBe(own.id);
    expect((await activity(d.user, d.item.serial_number)).payment_plan).toMatchObject({ template_id: own.id, own: true });

    // Unassigned by mistake, then given back to the heir: the account carries on from the day it began.
    await t.http.post('/payg/items/unassign').set(d.user.auth).send({ item_serial_number: d.item.serial_number }).expect(200);
    await t.http.post('/payg/items/assign').set(d.user.auth).send({ customer_id: d.heir.id, item_serial_number: d.item.serial_number }).expect(200);
    expect(await item(d.org.id, d.item.id)).toMatchObject({ customer_id: d.heir.id, total_paid: before.total_paid, assigned_at: before.assigned_at });
  });

  it('checks the new holder against the follow-on sales rule unless the account is paid off', async () => {
    const d = await paying();
    // The heir is far behind on a device of their own; the organization gives no credit to customers far behind.
    const mine = await seedItem(t, d.org.id, { customer_id: d.heir.id });
    await t.db.db.itemAssignment.create({ data: { organization_id: d.org.id, item_id: mine.id, customer_id: d.heir.id, assigned_at: new Date(Date.now() - 120 * 86_400_000) } });
    await t.db.db.item.update({ where: { organization_id_id: { organization_id: d.org.id, id: mine.id } }, data: { assigned_at: new Date(Date.now() - 120 * 86_400_000) } });
    await t.db.db.templateAssignment.create({ data: { organization_id: d.org.id, customer_id: d.heir.id, template_id: d.template.id, is_active: true } });
    await t.http.put('/payg/settings/follow-on-sales').set(d.user.auth).send({ rule: 'behind' }).expect(200);

    const refused = await transfer(d.user, { item_serial_number: d.item.serial_number, customer_id: d.heir.id, reason: 'Moved away' }).expect(409);
    expect(refused.body.message).toMatch(/Joseph Heir is Far behind/);
    expect((await item(d.org.id, d.item.id)).customer_id).toBe(d.customer.id);

    const staff = await seedUser(t, { organization_id: d.org.id, role: 'staff' });
    await transfer(staff, { item_serial_number: d.item.serial_number, customer_id: d.heir.id, reason: 'Moved away', override_reason: 'Family guarantee' }).expect(403);
    await transfer(d.user, { item_serial_number: d.item.serial_number, customer_id: d.heir.id, reason: 'Moved away', override_reason: 'Family guarantee' }).expect(201);
    const against = await t.db.platform.auditLog.findFirstOrThrow({ where: { organization_id: d.org.id, action: 'item.assigned_against_rule' } });
    expect(against.description).toBe(`Transferred device ${d.item.serial_number} to Joseph Heir against the follow-on sales rule: Family guarantee`);

    // A paid-off account is no credit: passed on without a check.
    const paidOff = await seedCustomerWithDevice(t, d.org.id, { template: README_PLAN });
    await t.db.db.item.update({ where: { organization_id_id: { organization_id: d.org.id, id: paidOff.item.id } }, data: { paid_off_at: new Date(), total_paid: '20000.00' } });
    const r = ZItemTransferReplySchema.parse(
      (await transfer(d.user, { item_serial_number: paidOff.item.serial_number, customer_id: d.heir.id, reason: 'Gift to his brother' }).expect(201)).body,
    );
    expect(r.paid_before).toBe('20000.00');
  });

  it('keeps the account in its month in the portfolio through two transfers and a repossession', async () => {
    const d = await paying();
    const third = await seedCustomer(t, d.org.id, { customer_name: 'Third Holder' });
    await transfer(d.user, { item_serial_number: d.item.serial_number, customer_id: d.heir.id, reason: 'Moved away' }).expect(201);
    await payCash(t, d.user, d.item.serial_number, '100.00');
    await transfer(d.user, { item_serial_number: d.item.serial_number, customer_id: third.id, reason: 'Sold it on' }).expect(201);
    await payCash(t, d.user, d.item.serial_number, '50.00');
    const portfolio = async () => ZReportSchema.parse((await t.http.post('/payg/reports/page').set(d.user.auth).send({ report: 'portfolio' }).expect(200)).body);
    // One account, the three holders' payments, still open.
    expect((await portfolio()).totals).toMatchObject({ accounts: 1, contract_value: '20000.00', collected: '2550.00', repossessed: 0 });
    // The third holder's account shows what the two before them paid.
    expect((await status(d.user, third.id)).paid_before).toBe('2500.00');
    expect((await status(d.user, d.heir.id)).paid_before).toBe('0.00');

    // Repossessed from the third holder: the account ends as one repossession, written off from what was left.
    await t.http.post('/payg/items/repossess').set(d.user.auth).send({ item_serial_number: d.item.serial_number, reason: 'Stopped paying' }).expect(200);
    expect((await portfolio()).totals).toMatchObject({ accounts: 1, contract_value: '20000.00', collected: '2550.00', repossessed: 1, written_off: '17450.00' });
  });

  it('refuses what is not a transfer, and bad fields by name, changing nothing', async () => {
    const d = await paying();
    const staff = await seedUser(t, { organization_id: d.org.id, role: 'staff' });
    const stock = await seedItem(t, d.org.id);
    const erased = await seedCustomer(t, d.org.id, { status: 'erased' });
    const body = { item_serial_number: d.item.serial_number, customer_id: d.heir.id, reason: 'Moved away' };
    await transfer(staff, body).expect(403);
    const cases: [object, number, string][] = [
      [{ ...body, item_serial_number: stock.serial_number }, 409, 'is not assigned to a customer'],
      [{ ...body, customer_id: d.customer.id }, 409, "is already this customer's"],
      [{ ...body, customer_id: erased.id }, 409, 'erased'],
      [{ ...body, customer_id: 999_999 }, 404, 'Customer'],
      [{ ...body, item_serial_number: 'NO-SUCH' }, 404, 'Device'],
      [{ ...body, reason: 'no' }, 400, 'reason'],
      [{ ...body, reason: undefined }, 400, 'reason'],
      [{ ...body, customer_id: 'x' }, 400, 'customer_id'],
      [{ ...body, item_serial_number: '' }, 400, 'item_serial_number'],
    ];
    for (const [b, code, text] of cases) {
      const res = await transfer(d.user, b);
      expect({ b, status: res.status }).toEqual({ b, status: code });
      expect(JSON.stringify(res.body)).toContain(text);
    }
    expect((await item(d.org.id, d.item.id)).customer_id).toBe(d.customer.id);
    expect(await t.db.db.itemAssignment.count({ where: { organization_id: d.org.id, transferred_from_customer_id: { not: null } } })).toBe(0);
  });

  it("cannot reach another organization's device or customer", async () => {
    const a = await paying();
    const b = await paying();
    await transfer(b.user, { item_serial_number: a.item.serial_number, customer_id: b.heir.id, reason: 'Not mine' }).expect(404);
    await transfer(b.user, { item_serial_number: b.item.serial_number, customer_id: a.heir.id, reason: 'Not mine' }).expect(404);
    expect((await item(a.org.id, a.item.id)).customer_id).toBe(a.customer.id);
    expect((await item(b.org.id, b.item.id)).customer_id).toBe(b.customer.id);
  });
});
