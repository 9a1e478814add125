import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Device } from '@kidogo/openpaygo';
import { ZCustomerStatusReplySchema, ZItemRepossessReplySchema, ZReportSchema } from '@kidogo/contracts';
import { createTestApp, type TestApp } from './support/test-app.js';
import { README_PLAN, payCash } from './support/plans.js';
import { seedCustomer, seedCustomerWithDevice, seedItem, seedTenant, seedUser, type SeededUser } from './support/factories.js';

// POST /payg/items/repossess (README "Customers, devices, payment templates
// and onboarding", "Repossessing a device").

describe('repossessing a device', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const repossess = (user: SeededUser, body: object) => t.http.post('/payg/items/repossess').set(user.auth).send(body);
  const item = (orgId: string, id: number) => t.db.db.item.findUniqueOrThrow({ where: { organization_id_id: { organization_id: orgId, id } } });

  /** A customer on the README plan whose device took 2,400 (activated, 21 days) and then stopped paying. */
  async function defaulter() {
    const { user, org } = await seedTenant(t);
    const s = await seedCustomerWithDevice(t, org.id, { template: README_PLAN, item: { price: '20000.00' } });
    const paid = await payCash(t, user, s.item.serial_number, '2400.00');
    return { user, org, ...s, paid };
  }

  it('locks the device with a code that closes the older ones, takes it back and writes off what was left', async () => {
    const d = await defaulter();
    const promisedOn = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    await t.http.post(`/payg/collections/${d.item.id}/contacts`).set(d.user.auth).send({ outcome: 'promised_to_pay', promised_on: promisedOn }).expect(201);

    const res = await repossess(d.user, { item_serial_number: d.item.serial_number, reason: '  Four months without paying  ' }).expect(200);
    const reply = ZItemRepossessReplySchema.parse(res.body);
    expect(reply).toEqual({
      message: `Device ${d.item.serial_number} repossessed from ${d.customer.customer_name}`,
      serial_number: d.item.serial_number,
      customer_id: d.customer.id,
      customer_name: d.customer.customer_name,
      lock_token: { token: expect.stringMatching(/^\d{9,}$/), token_count: expect.any(Number) },
      total_paid: '2400.00',
      written_off: '17600.00',
      status: 'maintenance',
      // In no stock location: it was given from none.
      location_id: null,
      location_name: null,
    });
    // The device, which took the payment's activation code, takes the lock: no days left.
    const device = new Device({ secretKey: d.item.secret.secretKey, startingCode: d.item.secret.startingCode }, 1);
    const now = new Date();
    expect(device.enterToken(d.paid.token!, now)).toMatchObject({ status: 'VALID', days: 21 });
    expect(device.enterToken(reply.lock_token!.token, now)).toMatchObject({ status: 'VALID', type: 'SET_TIME', days: 0 });
    expect(device.isActive(now)).toBe(false);

    // Off the customer, into maintenance; the token log has the lock and the older code is expired.
    expect(await item(d.org.id, d.item.id)).toMatchObject({ is_assigned: false, customer_id: null, status: 'maintenance', token_count: reply.lock_token!.token_count });
    const logs = await t.db.db.tokenLog.findMany({ where: { organization_id: d.org.id, item_id: d.item.id }, orderBy: { token_count: 'asc' } });
    expect(logs.map((l) => [l.token_type, l.is_valid])).toEqual([
      ['activation', false],
      ['set_time', true],
    ]);
    const status = ZCustomerStatusReplySchema.parse((await t.http.get(`/payg/customers/${d.customer.id}/status`).set(d.user.auth).expect(200)).body);
    expect(status.devices ?? []).toEqual([]);
    // Not among the devices out of credit to call, and the promise about it is over.
    const collections = await t.http.get('/payg/collections').set(d.user.auth).expect(200);
    expect(JSON.stringify(collections.body)).not.toContain(d.item.serial_number);
    expect(await t.db.db.collectionContact.findFirstOrThrow({ where: { organization_id: d.org.id, item_id: d.item.id } })).toMatchObject({ superseded: true });
    const audit = await t.db.platform.auditLog.findFirstOrThrow({ where: { organization_id: d.org.id, action: 'item.repossessed' } });
    expect(audit).toMatchObject({ actor_username: d.user.username, entity_id: d.item.serial_number });
    expect(audit.description).toBe(
      `Device ${d.item.serial_number} repossessed from ${d.customer.customer_name} by ${d.user.username}, 17600.00 written off, locked with token count ${reply.lock_token!.token_count}: Four months without paying`,
    );
    expect(audit.metadata).toMatchObject({ written_off: '17600.00', total_paid: '2400.00', customer_id: d.customer.id });

    // The Repossession report lists it with what was written off, on screen and as CSV.
    const report = ZReportSchema.parse((await t.http.post('/payg/reports/page').set(d.user.auth).send({ report: 'repossessions' }).expect(200)).body);
    expect(report.rows).toEqual([
      {
        repossessed_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
        serial_number: d.item.serial_number,
        customer_name: d.customer.customer_name,
        total_paid: '2400.00',
        written_off: '17600.00',
        recovered: 'Yes',
        reason: 'Four months without paying',
        repossessed_by: d.user.username,
      },
    ]);
    expect(report.totals).toMatchObject({ total_paid: '2400.00', written_off: '17600.00', rows: 1 });
    const csv = await t.http.post('/payg/reports/page').set(d.user.auth).send({ report: 'repossessions', format: 'csv' }).expect(200);
    expect(csv.text).toContain(`,${d.item.serial_number},`);
    expect(csv.text).toContain('17600.00');
    // Its write-off keeps the customer and the device in the books.
    const keep = await t.http.delete(`/payg/customers/${d.customer.id}`).set(d.user.auth).expect(409);
    expect(keep.body.detail).toMatch(/device\(s\) and \d+ payment\(s\)|repossessed/);

    // Repossessed again: it is no longer anyone's.
    const again = await repossess(d.user, { item_serial_number: d.item.serial_number, reason: 'Twice' }).expect(409);
    expect(again.body.detail).toBe(`Device ${d.item.serial_number} is not assigned to a customer: there is nothing to repossess`);
  });

  it('writes off a device that was not recovered: retired, at no stock location, and the report says it was not recovered', async () => {
    const d = await defaulter();
    const place = (await t.http.post('/payg/stock-locations').set(d.user.auth).send({ name: 'Kisumu Shop' }).expect(201)).body.location;
    expect(place.location_id).toEqual(expect.any(Number));
    await t.db.db.item.update({ where: { organization_id_id: { organization_id: d.org.id, id: d.item.id } }, data: { location_id: place.location_id } });
    // Not recovered, yet taken somewhere: refused, nothing changed.
    const bad = await repossess(d.user, { item_serial_number: d.item.serial_number, reason: 'Stolen', status: 'retired', location_id: place.location_id }).expect(400);
    expect(bad.body.message).toBe('location_id: a device that was not recovered (status retired) is taken to no stock location');
    expect(await item(d.org.id, d.item.id)).toMatchObject({ is_assigned: true, customer_id: d.customer.id });

    const reply = ZItemRepossessReplySchema.parse(
      (await repossess(d.user, { item_serial_number: d.item.serial_number, reason: 'Stolen from the house', status: 'retired', lock: false }).expect(200)).body,
    );
    expect(reply).toMatchObject({
      message: `Device ${d.item.serial_number} written off as not recovered from ${d.customer.customer_name}`,
      status: 'retired',
      written_off: '17600.00',
      lock_token: null,
      location_id: null,
    });
    expect(await item(d.org.id, d.item.id)).toMatchObject({ is_assigned: false, customer_id: null, status: 'retired', location_id: null });
    // Its place no longer holds it: the movement says why.
    const moved = await t.db.db.stockMovement.findFirstOrThrow({ where: { organization_id: d.org.id, item_id: d.item.id } });
    expect(moved).toMatchObject({ from_name: 'Kisumu Shop', to_name: null, note: 'Not recovered: Stolen from the house' });
    const report = ZReportSchema.parse((await t.http.post('/payg/reports/page').set(d.user.auth).send({ report: 'repossessions' }).expect(200)).body);
    expect(report.rows).toMatchObject([{ serial_number: d.item.serial_number, written_off: '17600.00', recovered: 'No', reason: 'Stolen from the house' }]);
    const audit = await t.db.platform.auditLog.findFirstOrThrow({ where: { organization_id: d.org.id, action: 'item.repossessed' } });
    expect(audit.description).toBe(
      `Device ${d.item.serial_number} written off as not recovered from ${d.customer.customer_name} by ${d.user.username}, 17600.00 written off: Stolen from the house`,
    );
    expect(audit.metadata).toMatchObject({ status: 'retired', location: null });
  });

  it('without a lock, straight to stock; the same customer gets the account back, anyone else a new one', async () => {
    const d = await defaulter();
    const res = ZItemRepossessReplySchema.parse(
      (await repossess(d.user, { item_serial_number: d.item.serial_number, reason: 'Returned broken', lock: false, status: 'available' }).expect(200)).body,
    );
    expect(res).toMatchObject({ lock_token: null, status: 'available' });
    expect(await t.db.db.tokenLog.count({ where: { organization_id: d.org.id, item_id: d.item.id } })).toBe(1);
    expect(await item(d.org.id, d.item.id)).toMatchObject({ status: 'available', is_assigned: false });

    // Arrears paid: given back to the same customer, it carries on.
    await t.http.post('/payg/items/assign').set(d.user.auth).send({ customer_id: d.customer.id, item_serial_number: d.item.serial_number }).expect(200);
    expect((await item(d.org.id, d.item.id)).total_paid.toFixed(2)).toBe('2400.00');
    // Taken again and given to someone else: a fresh account.
    await repossess(d.user, { item_serial_number: d.item.serial_number, reason: 'Stopped again', status: 'available' }).expect(200);
    const next = await seedCustomer(t, d.org.id);
    await t.http.post('/payg/items/assign').set(d.user.auth).send({ customer_id: next.id, item_serial_number: d.item.serial_number }).expect(200);
    expect((await item(d.org.id, d.item.id)).total_paid.toFixed(2)).toBe('0.00');
  });

  it('is for owners and admins, names the bad field, and refuses a paid-off or unknown device', async () => {
    const d = await defaulter();
    const staff = await seedUser(t, { organization_id: d.org.id, role: 'staff' });
    await repossess(staff, { item_serial_number: d.item.serial_number, reason: 'No payments' }).expect(403);
    for (const [body, detail] of [
      [{ item_serial_number: d.item.serial_number }, 'reason: is required'],
      [{ item_serial_number: d.item.serial_number, reason: 'no' }, 'reason: must say why'],
      [{ item_serial_number: d.item.serial_number, reason: 'No payments', status: 'lost' }, 'status: must be one of maintenance, available, retired'],
      [{ item_serial_number: d.item.serial_number, reason: 'No payments', lock: 'yes' }, 'lock: must be true or false'],
      [{ reason: 'No payments' }, 'item_serial_number:'],
    ] as const) {
      const bad = await repossess(d.user, body).expect(400);
      expect(bad.body.detail).toContain(detail);
    }
    await repossess(d.user, { item_serial_number: 'NO-SUCH-DEVICE', reason: 'No payments' }).expect(404);
    // Another organization's owner: not found, nothing changed.
    const other = await seedTenant(t);
    await repossess(other.user, { item_serial_number: d.item.serial_number, reason: 'No payments' }).expect(404);
    expect(await item(d.org.id, d.item.id)).toMatchObject({ is_assigned: true, customer_id: d.customer.id });

    // Paid off: the customer's.
    await payCash(t, d.user, d.item.serial_number, '17600.00');
    const owned = await repossess(d.user, { item_serial_number: d.item.serial_number, reason: 'No payments' }).expect(409);
    expect(owned.body.detail).toBe(`Device ${d.item.serial_number} is paid off: it is ${d.customer.customer_name}'s`);
    // Never given out.
    const stock = await seedItem(t, d.org.id);
    await repossess(d.user, { item_serial_number: stock.serial_number, reason: 'No payments' }).expect(409);
  });

  it('keeps a write-off in the books: the device and the customer cannot be deleted after it', async () => {
    const { user, org } = await seedTenant(t);
    const s = await seedCustomerWithDevice(t, org.id, { item: { price: '9000.00' } });
    const r = ZItemRepossessReplySchema.parse(
      (await repossess(user, { item_serial_number: s.item.serial_number, reason: 'Never paid', lock: false, status: 'available' }).expect(200)).body,
    );
    expect(r.written_off).toBe('9000.00');
    const device = await t.http.delete(`/payg/items/${s.item.serial_number}`).set(user.auth).expect(409);
    expect(device.body.detail).toBe(`Device ${s.item.serial_number} was repossessed and its write-off is in the books; set its status to retired instead of deleting it`);
    const customer = await t.http.delete(`/payg/customers/${s.customer.id}`).set(user.auth).expect(409);
    expect(customer.body.detail).toBe('Customer had 1 device(s) repossessed, written off in the books; keep the customer');
  });
});
