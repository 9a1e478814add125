import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Device } from '@kidogo/openpaygo';
import { ZCustomerStatusReplySchema, ZDeviceSwapsReplySchema, ZItemSwapReplySchema, ZReceiveReplySchema, ZReportSchema } from '@kidogo/contracts';
import { Calendar } from '../src/common/calendar.js';
import { Prisma } from '../src/generated/prisma/client.js';
import { RemindersService } from '../src/reminders/reminders.service.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { README_PLAN, SECOND_PLAN, payCash } from './support/plans.js';
import { mpesaPaybillSms, seedApiKey, seedCustomerWithDevice, seedItem, seedTemplate, seedTenant, seedUser, type SeededUser } from './support/factories.js';

// POST /payg/items/swap and GET /payg/device-swaps (README "Device swaps"): a
// customer's faulty device replaced by one from stock, the account moving to it.

const DAY = 86_400_000;
/** A 10-character M-Pesa code, letters and digits (a digit always: the parser takes no code of letters only). */
const mpesaCode = (prefix: string) =>
  `${prefix}${Math.floor(Math.random() * 10)}${Date.now().toString(36).toUpperCase().slice(-4)}${Math.floor(Math.random() * 46656).toString(36).toUpperCase().padStart(3, '0')}`;

describe('swapping a device', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const swap = (user: SeededUser, body: object) => t.http.post('/payg/items/swap').set(user.auth).send(body);
  const item = (orgId: string, id: number) => t.db.db.item.findUniqueOrThrow({ where: { organization_id_id: { organization_id: orgId, id } } });
  const swaps = async (user: SeededUser, query: { serial_number?: string; customer_id?: number }) =>
    ZDeviceSwapsReplySchema.parse((await t.http.get('/payg/device-swaps').query(query).set(user.auth).expect(200)).body);

  /** A customer on the README plan whose device took 2,400 (activated, 21 days), and a device in stock. */
  async function paying() {
    const { user, org } = await seedTenant(t);
    const s = await seedCustomerWithDevice(t, org.id, { template: README_PLAN, item: { price: '20000.00' } });
    const paid = await payCash(t, user, s.item.serial_number, '2400.00');
    const spare = await seedItem(t, org.id);
    return { user, org, ...s, paid, spare };
  }

  it('moves the account to the replacement with a code for the days left, and locks the old device', async () => {
    const d = await paying();
    await t.http.post('/payg/webhooks').set(d.user.auth).send({ url: 'https://crm.example.com/hook', events: ['device.swapped'] }).expect(201);
    const before = await item(d.org.id, d.item.id);
    // The customer reported the fault: the swap answers the ticket.
    const ticket = (await t.http.post('/payg/tickets').set(d.user.auth).send({ serial_number: d.item.serial_number, category: 'device_fault', description: 'Does not charge' }).expect(201)).body.data;
    const res = await swap(d.user, {
      item_serial_number: d.item.serial_number,
      new_serial_number: d.spare.serial_number,
      reason: ' Battery does not charge ',
      ticket_id: ticket.ticket_id,
    }).expect(201);
    const reply = ZItemSwapReplySchema.parse(res.body);
    expect(reply).toEqual({
      message: `Device ${d.item.serial_number} swapped for ${d.spare.serial_number}: ${d.customer.customer_name}'s account is on ${d.spare.serial_number} now`,
      swap_id: expect.any(Number),
      customer_id: d.customer.id,
      customer_name: d.customer.customer_name,
      old_serial_number: d.item.serial_number,
      new_serial_number: d.spare.serial_number,
      token: { token: expect.stringMatching(/^\d{9,}$/), token_type: 'set_time', token_count: expect.any(Number), days: 21 },
      lock_token: { token: expect.stringMatching(/^\d{9,}$/), token_count: expect.any(Number) },
      total_paid: '2400.00',
      days_moved: 21,
      paid_off: false,
      credit_until: expect.any(String),
      status: 'maintenance',
      location_id: null,
      location_name: null,
      ticket_id: ticket.ticket_id,
      warranty: null,
    });
    // Written in the ticket's history, where the technician resolves it.
    const history = (await t.http.get(`/payg/tickets/${ticket.ticket_id}/history`).set(d.user.auth).expect(200)).body.data as { action: string; description: string }[];
    expect(history.at(-1)).toMatchObject({
      action: 'ticket.device_swapped',
      description: `Ticket #${ticket.ticket_id} (device ${d.item.serial_number}): Device swapped for ${d.spare.serial_number}: Battery does not charge`,
    });

    // The replacement, fresh from the factory, takes its code: 21 days. The old device takes the lock: none.
    const now = new Date();
    const fresh = new Device({ secretKey: d.spare.secret.secretKey, startingCode: d.spare.secret.startingCode }, 1);
    expect(fresh.enterToken(reply.token!.token, now)).toMatchObject({ status: 'VALID', type: 'SET_TIME', days: 21 });
    expect(fresh.isActive(now)).toBe(true);
    const faulty = new Device({ secretKey: d.item.secret.secretKey, startingCode: d.item.secret.startingCode }, 1);
    expect(faulty.enterToken(d.paid.token!, now)).toMatchObject({ status: 'VALID', days: 21 });
    expect(faulty.enterToken(reply.lock_token!.token, now)).toMatchObject({ status: 'VALID', type: 'SET_TIME', days: 0 });
    expect(faulty.isActive(now)).toBe(false);

    // The account is on the replacement, from the day it began; the old device is in maintenance with an empty one.
    const next = await item(d.org.id, d.spare.id);
    expect(next).toMatchObject({ is_assigned: true, status: 'assigned', customer_id: d.customer.id, assigned_at: before.assigned_at, activated_at: before.activated_at });
    expect(next.total_paid.toFixed(2)).toBe('2400.00');
    expect(next.credit.toFixed(2)).toBe(before.credit.toFixed(2));
    expect(next.credit_until!.getTime()).toBeGreaterThanOrEqual(before.credit_until!.getTime());
    expect(next.credit_until!.getTime() - before.credit_until!.getTime()).toBeLessThan(DAY);
    const old = await item(d.org.id, d.item.id);
    expect(old).toMatchObject({ is_assigned: false, customer_id: null, status: 'maintenance', credit_until: null, activated_at: null, token_count: reply.lock_token!.token_count });
    expect(old.total_paid.toFixed(2)).toBe('0.00');
    const status = ZCustomerStatusReplySchema.parse((await t.http.get(`/payg/customers/${d.customer.id}/status`).set(d.user.auth).expect(200)).body);
    expect((status.devices ?? []).map((x) => x.serial_number)).toEqual([d.spare.serial_number]);

    // Both devices' histories and the customer's list it.
    const row = {
      swap_id: reply.swap_id,
      swapped_at: expect.any(String),
      swapped_by: d.user.username,
      reason: 'Battery does not charge',
      customer_id: d.customer.id,
      customer_name: d.customer.customer_name,
      old_serial_number: d.item.serial_number,
      new_serial_number: d.spare.serial_number,
      total_paid: '2400.00',
      days_moved: 21,
      paid_off: false,
      token_type: 'set_time',
      token_count: reply.token!.token_count,
      lock_token_count: reply.lock_token!.token_count,
      old_status: 'maintenance',
      warranty_until: null,
      in_warranty: null,
    };
    for (const q of [{ serial_number: d.item.serial_number }, { serial_number: d.spare.serial_number.toLowerCase() }, { customer_id: d.customer.id }, {}]) {
      expect(await swaps(d.user, q)).toEqual({ data: [row], pagination: { total: 1, total_pages: 1, page: 1, limit: 20 } });
    }
    // The Device Swap report lists it, with the faulty device's product and maker: a warranty claim's list.
    const report = ZReportSchema.parse((await t.http.post('/payg/reports/page').set(d.user.auth).send({ report: 'swaps' }).expect(200)).body);
    expect(report.rows).toEqual([
      {
        swapped_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
        serial_number: d.item.serial_number,
        product_name: before.product_name,
        manufacturer: before.manufacturer ?? before.product_oem,
        new_serial_number: d.spare.serial_number,
        customer_name: d.customer.customer_name,
        days_moved: 21,
        reason: 'Battery does not charge',
        warranty: 'None set',
        warranty_until: null,
        swapped_by: d.user.username,
      },
    ]);
    expect(report.totals).toMatchObject({ rows: 1, days_moved: 21 });
    const csv = await t.http.post('/payg/reports/page').set(d.user.auth).send({ report: 'swaps', format: 'csv' }).expect(200);
    expect(csv.text.split(/\r?\n/)[0].replace(/^\uFEFF/, '')).toBe('Swapped,Faulty Device,Product,Maker,Replacement,Customer,Days Moved,Reason,Warranty,Warranty Until,By');
    expect(csv.text).toContain(`,${d.spare.serial_number},`);
    const audit = await t.db.platform.auditLog.findFirstOrThrow({ where: { organization_id: d.org.id, action: 'item.swapped' } });
    expect(audit.description).toBe(
      `Device ${d.item.serial_number} of ${d.customer.customer_name} swapped for ${d.spare.serial_number} by ${d.user.username}, 21 day(s) moved, ` +
        `the old one locked with token count ${reply.lock_token!.token_count}: Battery does not charge`,
    );

    // The organization's own systems are told, with the replacement's code.
    const [event] = await t.db.platform.webhookDelivery.findMany({ where: { organization_id: d.org.id, event_type: 'device.swapped' }, select: { payload: true } });
    expect((event!.payload as { data: unknown }).data).toMatchObject({
      old_serial_number: d.item.serial_number,
      new_serial_number: d.spare.serial_number,
      customer_id: d.customer.id,
      days_moved: 21,
      token: { token: reply.token!.token, token_type: 'set_time', days: 21 },
      lock_token: reply.lock_token,
      swapped_by: d.user.username,
    });

    // Paid to the old serial out of habit: the replacement gets it, and its code.
    const key = await seedApiKey(t, d.user);
    const sms = mpesaPaybillSms({ code: mpesaCode('SW'), amount: '100.00', account: d.item.serial_number });
    const paid = ZReceiveReplySchema.parse((await t.http.post('/payg/external/receive-phoneteletalk').set(key).send({ message: sms, from: 'MPESA' }).expect(200)).body);
    expect(paid).toMatchObject({ status: 'processed', serial_number: d.spare.serial_number, days: 2 });
    expect(fresh.enterToken(paid.token!, now)).toMatchObject({ status: 'VALID', type: 'ADD_TIME', days: 2 });
    expect((await item(d.org.id, d.spare.id)).total_paid.toFixed(2)).toBe('2500.00');

    // No sale: one device given, one account, with the payments made on both devices.
    const agents = ZReportSchema.parse((await t.http.post('/payg/reports/page').set(d.user.auth).send({ report: 'agents' }).expect(200)).body);
    expect(agents.rows).toEqual([expect.objectContaining({ devices_given: 1, payments: 2 })]);
    const portfolio = ZReportSchema.parse((await t.http.post('/payg/reports/page').set(d.user.auth).send({ report: 'portfolio' }).expect(200)).body);
    expect(portfolio.totals).toMatchObject({ accounts: 1, contract_value: '20000.00', collected: '2500.00', repaid: 12.5, paid_off: 0 });

    // The payment made on the old device went to the replacement with the account: it cannot be taken off it.
    const reverse = await t.http.post(`/payg/payments/${d.paid.payment_id}/reverse`).set(d.user.auth).send({ reason: 'Wrong device' }).expect(409);
    expect(reverse.body.detail).toContain(`was swapped for ${d.spare.serial_number} after payment ${d.paid.payment_id}`);
  });

  it('gives a paid-off account an unlock code, and the plan of the device’s own goes with it', async () => {
    const d = await paying();
    const own = await seedTemplate(t, d.org.id, SECOND_PLAN);
    await t.http.post('/payg/payments/templates/assign').set(d.user.auth).send({ customer_id: d.customer.id, template_id: own.id, serial_number: d.item.serial_number }).expect(200);
    await payCash(t, d.user, d.item.serial_number, '20000.00');
    expect((await item(d.org.id, d.item.id)).paid_off_at).not.toBeNull();
    const paidOffAt = (await item(d.org.id, d.item.id)).paid_off_at;

    const reply = ZItemSwapReplySchema.parse(
      (await swap(d.user, { item_serial_number: d.item.serial_number, new_serial_number: d.spare.serial_number, reason: 'Screen cracked', status: 'retired' }).expect(201)).body,
    );
    expect(reply).toMatchObject({ paid_off: true, days_moved: 0, token: { token_type: 'unlock', days: 0 }, status: 'retired' });
    const fresh = new Device({ secretKey: d.spare.secret.secretKey, startingCode: d.spare.secret.startingCode }, 1);
    expect(fresh.enterToken(reply.token!.token, new Date())).toMatchObject({ status: 'VALID', type: 'DISABLE_PAYG' });
    expect(await item(d.org.id, d.spare.id)).toMatchObject({ paid_off_at: paidOffAt, credit_until: null, customer_id: d.customer.id });
    expect(await item(d.org.id, d.item.id)).toMatchObject({ status: 'retired', paid_off_at: null });
    const plans = await t.db.db.templateAssignment.findMany({ where: { organization_id: d.org.id, template_id: own.id, is_active: true } });
    expect(plans.map((p) => p.item_id)).toEqual([d.spare.id]);
    // Paid off: out of Collections, on either serial.
    const collections = JSON.stringify((await t.http.get('/payg/collections').set(d.user.auth).expect(200)).body);
    expect(collections).not.toContain(d.spare.serial_number);

    // The customer's copy of their personal data lists the swap; erasing it keeps the swap, not their name.
    const data = (await t.http.get(`/payg/customers/${d.customer.id}/personal-data`).set(d.user.auth).expect(200)).body;
    expect(data.device_swaps).toEqual([
      { swapped_at: expect.any(String), old_serial_number: d.item.serial_number, new_serial_number: d.spare.serial_number, reason: 'Screen cracked', total_paid: '22400.00', days_moved: 0 },
    ]);
    await t.db.db.deviceSwap.updateMany({ where: { organization_id: d.org.id }, data: { reason: `Screen cracked, said ${d.customer.customer_name}` } });
    await t.http.post(`/payg/customers/${d.customer.id}/erase`).set(d.user.auth).send({ reason: 'The customer asked in writing' }).expect(200);
    expect((await t.db.db.deviceSwap.findFirstOrThrow({ where: { organization_id: d.org.id } })).reason).toBe('Screen cracked, said Erased customer');
    const entry = await t.db.platform.auditLog.findFirstOrThrow({ where: { organization_id: d.org.id, action: 'item.swapped' } });
    expect(entry.metadata).toMatchObject({ old_serial_number: d.item.serial_number, total_paid: '22400.00' });
    expect(JSON.stringify(entry)).not.toContain(d.customer.customer_name);
  });

  it('moves an account with no days left as it is, to a workshop, and the old device comes back to the customer as a new account', async () => {
    const { user, org } = await seedTenant(t);
    const s = await seedCustomerWithDevice(t, org.id, { template: README_PLAN, item: { price: '20000.00' } });
    await payCash(t, user, s.item.serial_number, '2400.00');
    const ranOut = new Date(Date.now() - 12 * DAY);
    await t.db.db.item.update({ where: { organization_id_id: { organization_id: org.id, id: s.item.id } }, data: { credit_until: ranOut } });
    const spare = await seedItem(t, org.id);
    const workshop = (await t.http.post('/payg/stock-locations').set(user.auth).send({ name: 'Workshop' }).expect(201)).body.location;

    const reply = ZItemSwapReplySchema.parse(
      (await swap(user, { item_serial_number: s.item.serial_number, new_serial_number: spare.serial_number, reason: 'Panel broken', lock: false, location_id: workshop.location_id }).expect(201)).body,
    );
    expect(reply).toMatchObject({ token: null, lock_token: null, days_moved: 0, location_id: workshop.location_id, location_name: 'Workshop' });
    expect(await t.db.db.tokenLog.count({ where: { organization_id: org.id, item_id: spare.id } })).toBe(0);
    // Out of credit since the day it ran out, now on the replacement: Collections calls about it.
    expect(await item(org.id, spare.id)).toMatchObject({ credit_until: ranOut });
    const collections = JSON.stringify((await t.http.get('/payg/collections').set(user.auth).expect(200)).body);
    expect(collections).toContain(spare.serial_number);
    expect(collections).not.toContain(s.item.serial_number);
    expect(await item(org.id, s.item.id)).toMatchObject({ location_id: workshop.location_id, status: 'maintenance' });
    expect(await t.db.db.stockMovement.findFirstOrThrow({ where: { organization_id: org.id, item_id: s.item.id } })).toMatchObject({
      to_name: 'Workshop',
      note: `Swapped for ${spare.serial_number}: Panel broken`,
    });

    // Repaired and given back to the same customer: a second account on it, starting from nothing.
    await t.http.put(`/payg/items/${s.item.serial_number}`).set(user.auth).send({ status: 'available' }).expect(200);
    await t.http.post('/payg/items/assign').set(user.auth).send({ customer_id: s.customer.id, item_serial_number: s.item.serial_number }).expect(200);
    expect((await item(org.id, s.item.id)).total_paid.toFixed(2)).toBe('0.00');
    expect((await item(org.id, spare.id)).total_paid.toFixed(2)).toBe('2400.00');
    const portfolio = ZReportSchema.parse((await t.http.post('/payg/reports/page').set(user.auth).send({ report: 'portfolio' }).expect(200)).body);
    expect(portfolio.totals).toMatchObject({ accounts: 2, collected: '2400.00' });

    // The replacement, taken off the customer unused, is still in the history of the swap: it cannot be deleted.
    await t.http.post('/payg/items/unassign').set(user.auth).send({ item_serial_number: spare.serial_number }).expect(200);
    const keep = await t.http.delete(`/payg/items/${spare.serial_number}`).set(user.auth).expect(409);
    expect(keep.body.detail).toBe(
      `Device ${spare.serial_number} was part of a device swap, kept in the customer's history; set its status to retired instead of deleting it`,
    );
  });

  it('follows an account swapped twice: payments to the first serial reach the last device, and the portfolio counts it once', async () => {
    const d = await paying();
    const third = await seedItem(t, d.org.id);
    await swap(d.user, { item_serial_number: d.item.serial_number, new_serial_number: d.spare.serial_number, reason: 'No charge' }).expect(201);
    await payCash(t, d.user, d.spare.serial_number, '300.00');
    await swap(d.user, { item_serial_number: d.spare.serial_number, new_serial_number: third.serial_number, reason: 'Again no charge' }).expect(201);
    const key = await seedApiKey(t, d.user);
    const sms = mpesaPaybillSms({ code: mpesaCode('SX'), amount: '200.00', account: d.item.serial_number });
    const paid = ZReceiveReplySchema.parse((await t.http.post('/payg/external/receive-phoneteletalk').set(key).send({ message: sms, from: 'MPESA' }).expect(200)).body);
    expect(paid).toMatchObject({ status: 'processed', serial_number: third.serial_number });
    expect((await item(d.org.id, third.id)).total_paid.toFixed(2)).toBe('2900.00');
    const portfolio = ZReportSchema.parse((await t.http.post('/payg/reports/page').set(d.user.auth).send({ report: 'portfolio' }).expect(200)).body);
    expect(portfolio.totals).toMatchObject({ accounts: 1, contract_value: '20000.00', collected: '2900.00' });
    // Taken off the customer by mistake and given back: the account carries on from the day it began on the first device.
    const began = (await t.db.db.itemAssignment.findFirstOrThrow({ where: { organization_id: d.org.id, item_id: d.item.id } })).assigned_at;
    await t.http.post('/payg/items/unassign').set(d.user.auth).send({ item_serial_number: third.serial_number }).expect(200);
    await t.http.post('/payg/items/assign').set(d.user.auth).send({ customer_id: d.customer.id, item_serial_number: third.serial_number }).expect(200);
    expect(await item(d.org.id, third.id)).toMatchObject({ assigned_at: began, customer_id: d.customer.id });
    expect((await item(d.org.id, third.id)).total_paid.toFixed(2)).toBe('2900.00');
    expect((await swaps(d.user, { customer_id: d.customer.id })).data.map((x) => [x.old_serial_number, x.new_serial_number])).toEqual([
      [d.spare.serial_number, third.serial_number],
      [d.item.serial_number, d.spare.serial_number],
    ]);
  });

  it('does not remind the customer again of the day their credit runs out: the reminder already sent goes with the account', async () => {
    const d = await paying();
    const reminders = t.app.get(RemindersService);
    const cal = new Calendar('Africa/Nairobi');
    await t.http.put('/payg/settings/sms-provider').set(d.user.auth).send({ provider: 'sms_webhook', config: { url: 'http://127.0.0.1:9/sms' } }).expect(200);
    await t.http.put('/payg/settings/reminders').set(d.user.auth).send({ enabled: true, days_before: 0, send_hour: 0 }).expect(200);
    const reminded = () =>
      t.db.query<{ item_id: number }>(Prisma.sql`
        SELECT item_id FROM messages WHERE organization_id = ${d.org.id} AND payment_id IS NULL AND forwarded_message LIKE '%runs out today%'
        ORDER BY message_id`);
    // The morning the credit runs out: the customer is reminded of the faulty device.
    const creditUntil = (await item(d.org.id, d.item.id)).credit_until!;
    const morning = new Date(cal.startOf(cal.dayOf(creditUntil)).getTime() + 60_000);
    await reminders.sweep(morning);
    expect(await reminded()).toEqual([{ item_id: d.item.id }]);

    const reply = ZItemSwapReplySchema.parse(
      (await swap(d.user, { item_serial_number: d.item.serial_number, new_serial_number: d.spare.serial_number, reason: 'Screen dead' }).expect(201)).body,
    );
    expect(cal.dayOf(new Date(reply.credit_until!))).toBe(cal.dayOf(creditUntil));
    // The replacement's credit runs out the same day: the next sweep sends nothing.
    await reminders.sweep(new Date(morning.getTime() + 60_000));
    expect(await reminded()).toEqual([{ item_id: d.item.id }]);
    // A payment that moves the credit to another day is reminded of that day, on the replacement.
    await payCash(t, d.user, d.spare.serial_number, '100.00');
    const moved = (await item(d.org.id, d.spare.id)).credit_until!;
    await reminders.sweep(new Date(cal.startOf(cal.dayOf(moved)).getTime() + 60_000));
    expect(await reminded()).toEqual([{ item_id: d.item.id }, { item_id: d.spare.id }]);
  });

  it('is for owners and admins, names the bad field, refuses a device nobody has or a replacement not in stock, and stays in its organization', async () => {
    const d = await paying();
    const staff = await seedUser(t, { organization_id: d.org.id, role: 'staff' });
    const base = { item_serial_number: d.item.serial_number, new_serial_number: d.spare.serial_number, reason: 'Broken' };
    await swap(staff, base).expect(403);
    for (const [body, status, detail] of [
      [{ ...base, reason: undefined }, 400, 'reason: is required'],
      [{ ...base, reason: 'no' }, 400, 'reason: must say why'],
      [{ ...base, status: 'available' }, 400, 'status: must be one of maintenance, retired'],
      [{ ...base, lock: 'yes' }, 400, 'lock: must be true or false'],
      [{ ...base, new_serial_number: undefined }, 400, 'new_serial_number:'],
      [{ ...base, new_serial_number: d.item.serial_number }, 400, 'new_serial_number: must be another device than item_serial_number'],
      [{ ...base, new_serial_number: 'NO-SUCH-SPARE' }, 400, 'new_serial_number: no device NO-SUCH-SPARE in your organization'],
      [{ ...base, location_id: 'workshop' }, 400, 'location_id:'],
      [{ ...base, item_serial_number: 'NO-SUCH-DEVICE' }, 404, 'Device not found'],
      [{ ...base, item_serial_number: d.spare.serial_number, new_serial_number: d.item.serial_number }, 409, `Device ${d.spare.serial_number} is not assigned to a customer: there is nothing to swap`],
    ] as const) {
      const bad = await swap(d.user, body).expect(status);
      expect(bad.body.detail).toContain(detail);
    }
    // The ticket must be this device's, and still open.
    const theirTicket = (await t.http.post('/payg/tickets').set(d.user.auth).send({ serial_number: d.spare.serial_number, category: 'device_fault', description: 'Dead on arrival' }).expect(201)).body.data;
    const closed = (await t.http.post('/payg/tickets').set(d.user.auth).send({ serial_number: d.item.serial_number, category: 'device_fault', description: 'Loose cable' }).expect(201)).body.data;
    await t.http.patch(`/payg/tickets/${closed.ticket_id}`).set(d.user.auth).send({ status: 'resolved', resolution: 'Cable fixed' }).expect(200);
    for (const [ticketId, detail] of [
      [closed.ticket_id, `ticket_id: ticket #${closed.ticket_id} is resolved already`],
      [theirTicket.ticket_id, `ticket_id: ticket #${theirTicket.ticket_id} is about another device than ${d.item.serial_number}`],
      [999_999, 'ticket_id: no ticket #999999 in your organization'],
      ['first', 'ticket_id: must be a positive whole number'],
    ] as const) {
      const bad = await swap(d.user, { ...base, ticket_id: ticketId }).expect(400);
      expect(bad.body.detail).toContain(detail);
    }
    // The replacement must be in stock: not someone's, not under maintenance.
    const someone = await seedCustomerWithDevice(t, d.org.id);
    const taken = await swap(d.user, { ...base, new_serial_number: someone.item.serial_number }).expect(409);
    expect(taken.body.detail).toBe(`Device ${someone.item.serial_number} is assigned to ${someone.customer.customer_name}: the replacement must come from stock`);
    const broken = await seedItem(t, d.org.id, { status: 'maintenance' });
    const repair = await swap(d.user, { ...base, new_serial_number: broken.serial_number }).expect(409);
    expect(repair.body.detail).toBe(`Device ${broken.serial_number} is under maintenance: the replacement must be available stock`);

    // Another organization: its devices are not found, its spare is no device here, and it sees no swaps.
    const other = await seedTenant(t);
    const theirs = await seedItem(t, other.org.id);
    await swap(other.user, base).expect(404);
    const foreign = await swap(d.user, { ...base, new_serial_number: theirs.serial_number }).expect(400);
    expect(foreign.body.detail).toContain('new_serial_number: no device');
    expect(await item(d.org.id, d.item.id)).toMatchObject({ is_assigned: true, customer_id: d.customer.id });
    expect(await item(d.org.id, d.spare.id)).toMatchObject({ is_assigned: false, customer_id: null });
    expect(await t.db.db.deviceSwap.count({ where: { organization_id: d.org.id } })).toBe(0);

    await swap(d.user, base).expect(201);
    expect((await swaps(other.user, {})).data).toEqual([]);
    expect((await swaps(other.user, { serial_number: d.item.serial_number })).data).toEqual([]);
    expect((await swaps(staff, { customer_id: d.customer.id })).pagination.total).toBe(1);
    const bad = await t.http.get('/payg/device-swaps').query({ customer_id: 'x' }).set(d.user.auth).expect(400);
    expect(bad.body.detail).toContain('customer_id:');
    await t.http.get('/payg/device-swaps').query({ limit: 101 }).set(d.user.auth).expect(400);
    // Again: the old device is nobody's now.
    await swap(d.user, base).expect(409);
  });
});
