import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  ZDeviceActivitySchema,
  ZDeviceSwapsReplySchema,
  ZItemSwapReplySchema,
  ZReportSchema,
  ZTicketReplySchema,
  ZTicketsReplySchema,
  ZWarrantySettingsSchema,
  type WarrantySettings,
} from '@kidogo/contracts';
import { Prisma } from '../src/generated/prisma/client.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { README_PLAN, payCash } from './support/plans.js';
import { seedCustomerWithDevice, seedItem, seedTenant, seedUser, type SeededUser } from './support/factories.js';

// GET/PUT /payg/settings/warranties, and a device's warranty on its page, in a
// swap and in the Device Swap report (README "Warranties").

const DAY = 86_400_000;

describe('product warranties', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const read = async (user: SeededUser): Promise<WarrantySettings> =>
    ZWarrantySettingsSchema.parse((await t.http.get('/payg/settings/warranties').set(user.auth).expect(200)).body);
  const put = (user: SeededUser, warranties: unknown) => t.http.put('/payg/settings/warranties').set(user.auth).send({ warranties });
  const deviceInfo = async (user: SeededUser, serial: string) =>
    ZDeviceActivitySchema.parse((await t.http.get(`/payg/devices/${serial}/activity`).set(user.auth).expect(200)).body).data.device_info;
  /** assigned_at plus whole months, as PostgreSQL adds them (the same day of the month, or its last day). */
  const plusMonths = async (at: Date, months: number) =>
    (await t.db.query<{ until: Date }>(Prisma.sql`SELECT ${at}::timestamptz + make_interval(months => ${months}::int) AS until`))[0]!.until;

  it('lists the products with a warranty and the other product names, and replaces the list as a whole', async () => {
    const { user, org } = await seedTenant(t);
    await seedItem(t, org.id, { product_name: 'Solar Home System 50W' });
    await seedItem(t, org.id, { product_name: 'Solar Home System 50W' });
    await seedItem(t, org.id, { product_name: 'Lamp L2' });
    await seedItem(t, org.id, { product_name: 'Phone A10' });
    expect(await read(user)).toEqual({ warranties: [], other_products: ['Lamp L2', 'Phone A10', 'Solar Home System 50W'] });

    // Matched by name whatever the case; a product with no device yet can have one too.
    const set = ZWarrantySettingsSchema.parse(
      (
        await put(user, [
          { product_name: ' solar home system 50w ', months: 24 },
          { product_name: 'Lamp L2', months: 12 },
          { product_name: 'E-bike X1', months: 6 },
        ]).expect(200)
      ).body,
    );
    expect(set).toEqual({
      warranties: [
        { product_name: 'E-bike X1', months: 6, devices: 0 },
        { product_name: 'Lamp L2', months: 12, devices: 1 },
        { product_name: 'solar home system 50w', months: 24, devices: 2 },
      ],
      other_products: ['Phone A10'],
    });
    expect(await read(user)).toEqual(set);
    const audit = await t.db.db.auditLog.findFirstOrThrow({ where: { organization_id: org.id, action: 'warranties.update' } });
    expect(audit.description).toBe(`Warranties: E-bike X1 6 month(s), Lamp L2 12 month(s), solar home system 50w 24 month(s), set by ${user.username}`);

    // The whole list again: what is left out has no warranty any more.
    expect((await put(user, [{ product_name: 'Lamp L2', months: 18 }]).expect(200)).body.warranties).toEqual([
      { product_name: 'Lamp L2', months: 18, devices: 1 },
    ]);
    expect(await read(user)).toEqual({ warranties: [{ product_name: 'Lamp L2', months: 18, devices: 1 }], other_products: ['Phone A10', 'Solar Home System 50W'] });
    expect((await put(user, []).expect(200)).body.warranties).toEqual([]);
  });

  it.each([
    ['warranties.0.months: must be at least 1', [{ product_name: 'Lamp', months: 0 }]],
    ['warranties.0.months: must be at most 120', [{ product_name: 'Lamp', months: 121 }]],
    ['warranties.0.months: must be a whole number', [{ product_name: 'Lamp', months: 1.5 }]],
    ['warranties.0.months: must be a whole number', [{ product_name: 'Lamp', months: '12' }]],
    ['warranties.1.product_name: is required', [{ product_name: 'Lamp', months: 12 }, { product_name: '  ', months: 12 }]],
    ['warranties.0.product_name: is required', [{ months: 12 }]],
    ['warranties.0.product_name: must be at most 200 characters', [{ product_name: 'x'.repeat(201), months: 12 }]],
    ['warranties.1.product_name: LAMP is already in the list (row 1)', [{ product_name: 'Lamp', months: 12 }, { product_name: 'LAMP', months: 6 }]],
    ['warranties: must have at most 200 products', Array.from({ length: 201 }, (_, i) => ({ product_name: `P${i}`, months: 12 }))],
    ['warranties: must be a list of {product_name, months}', 'Lamp'],
  ])('answers 400 "%s" (case %#) and changes nothing', async (message, warranties) => {
    const { user } = await seedTenant(t);
    await put(user, [{ product_name: 'Kept', months: 3 }]).expect(200);
    const res = await put(user, warranties).expect(400);
    expect(res.body.message).toContain(message);
    expect((await read(user)).warranties).toEqual([{ product_name: 'Kept', months: 3, devices: 0 }]);
  });

  it('is read by every user and set by owners and admins, in their own organization only', async () => {
    const a = await seedTenant(t);
    const b = await seedTenant(t);
    const staff = await seedUser(t, { organization_id: a.org.id, role: 'staff' });
    const admin = await seedUser(t, { organization_id: a.org.id, role: 'admin' });
    const { item } = await seedCustomerWithDevice(t, a.org.id, { item: { product_name: 'Lamp L2' } });
    await put(staff, [{ product_name: 'Lamp L2', months: 12 }]).expect(403);
    await put(admin, [{ product_name: 'Lamp L2', months: 12 }]).expect(200);
    expect((await read(staff)).warranties).toEqual([{ product_name: 'Lamp L2', months: 12, devices: 1 }]);
    // B's list is B's: it neither sees A's nor covers A's devices of the same name.
    expect(await read(b.user)).toEqual({ warranties: [], other_products: [] });
    await put(b.user, [{ product_name: 'Phone A10', months: 3 }]).expect(200);
    expect((await read(a.user)).warranties.map((w) => w.product_name)).toEqual(['Lamp L2']);
    await put(a.user, []).expect(200);
    await put(b.user, [{ product_name: 'Lamp L2', months: 12 }]).expect(200);
    expect((await deviceInfo(a.user, item.serial_number)).warranty).toBeNull();
  });

  it("shows on a device's page from the day its account began, and ends after its months", async () => {
    const { user, org } = await seedTenant(t);
    const { item } = await seedCustomerWithDevice(t, org.id, { item: { product_name: 'Solar Home System 50W' } });
    const stock = await seedItem(t, org.id, { product_name: 'Solar Home System 50W' });
    const other = await seedCustomerWithDevice(t, org.id, { item: { product_name: 'Phone A10' } });
    await put(user, [{ product_name: 'SOLAR HOME SYSTEM 50W', months: 12 }]).expect(200);

    const began = (await t.db.db.item.findUniqueOrThrow({ where: { organization_id_id: { organization_id: org.id, id: item.id } } })).assigned_at!;
    expect((await deviceInfo(user, item.serial_number)).warranty).toEqual({
      months: 12,
      starts_at: began.toISOString(),
      until: (await plusMonths(began, 12)).toISOString(),
      in_warranty: true,
    });
    // In stock (given to nobody), or of a product with none: no warranty running.
    expect((await deviceInfo(user, stock.serial_number)).warranty).toBeNull();
    expect((await deviceInfo(user, other.item.serial_number)).warranty).toBeNull();

    // Sold 13 months ago: out of warranty since a month.
    const sold = new Date(Date.now() - 396 * DAY);
    await t.db.db.item.update({ where: { organization_id_id: { organization_id: org.id, id: item.id } }, data: { assigned_at: sold } });
    expect((await deviceInfo(user, item.serial_number)).warranty).toEqual({
      months: 12,
      starts_at: sold.toISOString(),
      until: (await plusMonths(sold, 12)).toISOString(),
      in_warranty: false,
    });
  });

  it("says on a service ticket whether the device was in warranty when the fault was reported, while the customer has it", async () => {
    const { user, org } = await seedTenant(t);
    await put(user, [{ product_name: 'Solar Home System 50W', months: 12 }]).expect(200);
    const fresh = await seedCustomerWithDevice(t, org.id);
    const old = await seedCustomerWithDevice(t, org.id);
    await t.db.db.item.update({ where: { organization_id_id: { organization_id: org.id, id: old.item.id } }, data: { assigned_at: new Date(Date.now() - 400 * DAY) } });
    const open = async (serial: string) =>
      ZTicketReplySchema.parse(
        (await t.http.post('/payg/tickets').set(user.auth).send({ serial_number: serial, category: 'device_fault', description: 'Does not charge' }).expect(201)).body,
      ).data;
    const a = await open(fresh.item.serial_number);
    const b = await open(old.item.serial_number);
    expect(a.warranty).toMatchObject({ months: 12, in_warranty: true });
    expect(b.warranty).toMatchObject({ months: 12, in_warranty: false });
    const listed = ZTicketsReplySchema.parse((await t.http.get('/payg/tickets').set(user.auth).expect(200)).body).data.items;
    expect(listed.map((k) => [k.ticket_id, k.warranty?.in_warranty ?? null])).toEqual([
      [b.ticket_id, false],
      [a.ticket_id, true],
    ]);
    // Taken back from the customer: the ticket is about an account that ended, and says nothing of a warranty.
    await t.http.post('/payg/items/unassign').set(user.auth).send({ item_serial_number: fresh.item.serial_number }).expect(200);
    expect(ZTicketReplySchema.parse((await t.http.get(`/payg/tickets/${a.ticket_id}`).set(user.auth).expect(200)).body).data.warranty).toBeNull();
  });

  it('says in a swap whether the faulty device was in warranty, and the replacement keeps that warranty', async () => {
    const { user, org } = await seedTenant(t);
    await put(user, [{ product_name: 'Solar Home System 50W', months: 24 }]).expect(200);
    const inWarranty = await seedCustomerWithDevice(t, org.id, { template: README_PLAN });
    await payCash(t, user, inWarranty.item.serial_number, '2400.00');
    const spare = await seedItem(t, org.id, { product_name: 'Lamp L2' });
    const began = (await t.db.db.item.findUniqueOrThrow({ where: { organization_id_id: { organization_id: org.id, id: inWarranty.item.id } } })).assigned_at!;
    const until = (await plusMonths(began, 24)).toISOString();

    await t.http.post('/payg/webhooks').set(user.auth).send({ url: 'https://crm.example.com/hook', events: ['device.swapped'] }).expect(201);
    const reply = ZItemSwapReplySchema.parse(
      (
        await t.http
          .post('/payg/items/swap')
          .set(user.auth)
          .send({ item_serial_number: inWarranty.item.serial_number, new_serial_number: spare.serial_number, reason: 'Battery dead' })
          .expect(201)
      ).body,
    );
    expect(reply.warranty).toEqual({ months: 24, starts_at: began.toISOString(), until, in_warranty: true });
    const [event] = await t.db.platform.webhookDelivery.findMany({ where: { organization_id: org.id, event_type: 'device.swapped' }, select: { payload: true } });
    expect((event!.payload as { data: unknown }).data).toMatchObject({ old_serial_number: inWarranty.item.serial_number, in_warranty: true, warranty_until: until });
    // The replacement's account began when the faulty device's did: a lamp has no warranty set, so none.
    expect((await deviceInfo(user, spare.serial_number)).warranty).toBeNull();
    await put(user, [
      { product_name: 'Solar Home System 50W', months: 24 },
      { product_name: 'Lamp L2', months: 6 },
    ]).expect(200);
    expect((await deviceInfo(user, spare.serial_number)).warranty).toMatchObject({ starts_at: began.toISOString(), months: 6, in_warranty: true });

    // Sold three years ago: out of warranty. A product with none set: none.
    const old = await seedCustomerWithDevice(t, org.id);
    await t.db.db.item.update({ where: { organization_id_id: { organization_id: org.id, id: old.item.id } }, data: { assigned_at: new Date(Date.now() - 3 * 365 * DAY) } });
    const spare2 = await seedItem(t, org.id);
    await t.http.post('/payg/items/swap').set(user.auth).send({ item_serial_number: old.item.serial_number, new_serial_number: spare2.serial_number, reason: 'Panel cracked' }).expect(201);
    const phone = await seedCustomerWithDevice(t, org.id, { item: { product_name: 'Phone A10' } });
    const spare3 = await seedItem(t, org.id, { product_name: 'Phone A10' });
    const none = ZItemSwapReplySchema.parse(
      (await t.http.post('/payg/items/swap').set(user.auth).send({ item_serial_number: phone.item.serial_number, new_serial_number: spare3.serial_number, reason: 'Screen dead' }).expect(201)).body,
    );
    expect(none.warranty).toBeNull();

    // Kept as it was on the day of the swap, whatever the list says later.
    await put(user, []).expect(200);
    const swaps = ZDeviceSwapsReplySchema.parse((await t.http.get('/payg/device-swaps').set(user.auth).expect(200)).body).data;
    expect(swaps.map((s) => [s.old_serial_number, s.in_warranty, s.warranty_until !== null])).toEqual([
      [phone.item.serial_number, null, false],
      [old.item.serial_number, false, true],
      [inWarranty.item.serial_number, true, true],
    ]);
    expect(swaps[2]!.warranty_until).toBe(until);
    const report = ZReportSchema.parse((await t.http.post('/payg/reports/page').set(user.auth).send({ report: 'swaps' }).expect(200)).body);
    expect(report.columns.map((c) => c.key)).toContain('warranty');
    expect(report.rows.map((r) => [r.serial_number, r.warranty, r.warranty_until === null])).toEqual([
      [phone.item.serial_number, 'None set', true],
      [old.item.serial_number, 'Out of warranty', false],
      [inWarranty.item.serial_number, 'In warranty', false],
    ]);
  });
});
