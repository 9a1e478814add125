import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  ZCsvImportReportSchema,
  ZItemSchema,
  ZProductListReplySchema,
  ZStockLocationListReplySchema,
  ZStockLocationReplySchema,
  ZStockMovementsReplySchema,
  ZStockMoveReplySchema,
  ZStockTakeReplySchema,
  type StockLocation,
} from '@kidogo/contracts';
import { createTestApp, type TestApp } from './support/test-app.js';
import { seedCustomerWithDevice, seedItem, seedTenant, seedUser, type SeededUser } from './support/factories.js';
import { StatsService } from '../src/stats/stats.service.js';
import { settledAuditEntry } from './support/audit.js';

// Stock locations (README "Stock locations"): the warehouses, shops and agents
// that hold the devices, the devices' moves between them, and the counts.

describe('stock locations', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  const add = (user: SeededUser, body: object) => t.http.post('/payg/stock-locations').set(user.auth).send(body);
  const move = (user: SeededUser, body: object) => t.http.post('/payg/stock-locations/move').set(user.auth).send(body);
  const list = async (user: SeededUser) => ZStockLocationListReplySchema.parse((await t.http.get('/payg/stock-locations').set(user.auth).expect(200)).body);
  const place = async (user: SeededUser, id: number): Promise<StockLocation> =>
    (await list(user)).data.find((l) => l.location_id === id)!;
  const movements = async (user: SeededUser, query: object = {}) =>
    ZStockMovementsReplySchema.parse((await t.http.get('/payg/stock-movements').query(query).set(user.auth).expect(200)).body);
  const products = async (user: SeededUser, query: object) =>
    ZProductListReplySchema.parse((await t.http.get('/payg/products').query(query).set(user.auth).expect(200)).body).data;
  const audit = (orgId: string) =>
    t.db.platform.auditLog.findMany({ where: { organization_id: orgId, entity_type: 'stock_location' }, orderBy: { id: 'asc' } });
  const locationOf = async (orgId: string, serial: string) =>
    (await t.db.db.item.findFirstOrThrow({ where: { organization_id: orgId, serial_number: serial }, select: { location_id: true } })).location_id;

  it('adds places, moves devices in stock between them with each move recorded, and counts them by status and product', async () => {
    const { org, user: owner } = await seedTenant(t);
    const clerk = await seedUser(t, { organization_id: org.id, role: 'staff' });
    const warehouse = ZStockLocationReplySchema.parse(
      (await add(owner, { name: '  Nairobi Warehouse ', description: 'Industrial Area, Gate 4' }).expect(201)).body,
    ).location;
    expect(warehouse).toMatchObject({ name: 'Nairobi Warehouse', description: 'Industrial Area, Gate 4' });
    expect(warehouse.counts).toEqual({ available: 0, maintenance: 0, retired: 0, given_out: 0, in_stock: 0 });
    const shop = ZStockLocationReplySchema.parse((await add(owner, { name: 'Kisumu Shop' }).expect(201)).body).location;

    const lamps = [await seedItem(t, org.id, { product_name: 'Lamp' }), await seedItem(t, org.id, { product_name: 'Lamp' })];
    const shs = await seedItem(t, org.id, { product_name: 'SHS 50W', status: 'maintenance' });
    await t.http.post('/payg/webhooks').set(owner.auth).send({ url: 'https://erp.example.com/hook', events: ['device.moved'] }).expect(201);
    const { item: withCustomer } = await seedCustomerWithDevice(t, org.id);

    // Staff move stock; serials in any spelling, each device once.
    const moved = ZStockMoveReplySchema.parse(
      (
        await move(clerk, {
          serial_numbers: [lamps[0]!.serial_number.toLowerCase(), lamps[1]!.serial_number, shs.serial_number, ` ${lamps[1]!.serial_number} `],
          location_id: warehouse.location_id,
          note: 'Container 12 unpacked',
        }).expect(200)
      ).body,
    );
    expect(moved).toEqual({
      message: '3 devices moved to Nairobi Warehouse',
      moved: 3,
      unchanged: 0,
      location_id: warehouse.location_id,
      location_name: 'Nairobi Warehouse',
    });
    expect((await place(owner, warehouse.location_id)).counts).toEqual({ available: 2, maintenance: 1, retired: 0, given_out: 0, in_stock: 3 });
    expect((await place(owner, warehouse.location_id)).products).toEqual([
      { product_name: 'Lamp', available: 2, maintenance: 0, retired: 0, given_out: 0, in_stock: 2 },
      { product_name: 'SHS 50W', available: 0, maintenance: 1, retired: 0, given_out: 0, in_stock: 1 },
    ]);
    // The device with a customer is in no place.
    expect((await list(owner)).unplaced.counts).toMatchObject({ given_out: 1, in_stock: 0 });

    // One lamp on to the shop; the other is already where it is asked to go.
    const onward = ZStockMoveReplySchema.parse(
      (await move(clerk, { serial_numbers: [lamps[0]!.serial_number, lamps[1]!.serial_number], location_id: shop.location_id }).expect(200)).body,
    );
    expect(onward).toMatchObject({ moved: 2, unchanged: 0 });
    const again = ZStockMoveReplySchema.parse(
      (await move(clerk, { serial_numbers: [lamps[0]!.serial_number], location_id: shop.location_id }).expect(200)).body,
    );
    expect(again).toMatchObject({ message: 'Nothing moved; 1 device was already there', moved: 0, unchanged: 1 });

    // An inventory system hears of each device moved (not of the one left where it was), from the move's transaction.
    const { rows: events } = await t.db.pool.query(
      `SELECT payload FROM webhook_deliveries WHERE organization_id = $1 AND event_type = 'device.moved' ORDER BY delivery_id`,
      [org.id],
    );
    expect(events).toHaveLength(5);
    expect(events[0].payload.data).toMatchObject({
      serial_number: lamps[0]!.serial_number,
      from_location_id: null,
      from_location: null,
      to_location_id: warehouse.location_id,
      to_location: 'Nairobi Warehouse',
      note: 'Container 12 unpacked',
      moved_by: clerk.username,
    });
    expect(events[3].payload.data).toMatchObject({ from_location: 'Nairobi Warehouse', to_location: 'Kisumu Shop' });

    // Each device's history, by the places' names as they were, newest first.
    const lampHistory = await movements(clerk, { serial_number: lamps[0]!.serial_number });
    expect(lampHistory.data.map((m) => [m.from_location, m.to_location, m.moved_by, m.note])).toEqual([
      ['Nairobi Warehouse', 'Kisumu Shop', clerk.username, null],
      [null, 'Nairobi Warehouse', clerk.username, 'Container 12 unpacked'],
    ]);
    expect(lampHistory.pagination).toMatchObject({ total: 2 });
    expect((await movements(owner, { location_id: warehouse.location_id })).pagination.total).toBe(5);
    expect((await movements(owner)).data).toHaveLength(5);

    // Counts follow the devices, also through the totals' compaction.
    await t.app.get(StatsService).compact();
    expect((await place(owner, shop.location_id)).counts).toMatchObject({ available: 2, in_stock: 2 });
    expect((await place(owner, warehouse.location_id)).counts).toMatchObject({ available: 0, maintenance: 1, in_stock: 1 });

    // A device given out from the shop keeps where it came from: counted as given out there.
    await t.http.post('/payg/items/assign').set(owner.auth).send({ customer_id: (await seedCustomerWithDevice(t, org.id)).customer.id, item_serial_number: lamps[0]!.serial_number }).expect(200);
    expect((await place(owner, shop.location_id)).counts).toEqual({ available: 1, maintenance: 0, retired: 0, given_out: 1, in_stock: 1 });

    // Products by place, and those in none, with their totals.
    const atShop = await products(clerk, { location_id: shop.location_id });
    expect(atShop.items.map((i) => [i.serial_number, i.location_name])).toEqual([
      [lamps[1]!.serial_number, 'Kisumu Shop'],
      [lamps[0]!.serial_number, 'Kisumu Shop'],
    ]);
    expect(atShop.pagination.total).toBe(2);
    const unassignedAtShop = await products(clerk, { location_id: shop.location_id, status: 'unassigned' });
    expect(unassignedAtShop.items.map((i) => i.serial_number)).toEqual([lamps[1]!.serial_number]);
    const none = await products(clerk, { location_id: 'none' });
    expect(none.items.map((i) => i.serial_number).sort()).toEqual(
      [withCustomer.serial_number, (await t.db.db.item.findMany({ where: { organization_id: org.id, location_id: null } })).map((i) => i.serial_number)]
        .flat()
        .filter((s, i, all) => all.indexOf(s) === i)
        .sort(),
    );
    expect((await products(clerk, { location_id: shop.location_id, search: lamps[1]!.serial_number })).items.map((i) => i.serial_number)).toEqual([
      lamps[1]!.serial_number,
    ]);
    expect((await t.http.get('/payg/products').query({ location_id: 'shop' }).set(clerk.auth).expect(400)).body.message).toBe(
      "location_id: must be a stock location's id, or none",
    );

    // The device page and the reply of a device name the place.
    const fetched = ZItemSchema.parse((await t.http.post('/payg/items/fetch').set(clerk.auth).send({ serial_number: lamps[1]!.serial_number }).expect(200)).body);
    expect(fetched).toMatchObject({ location_id: shop.location_id, location_name: 'Kisumu Shop' });
    const activity = await t.http.get(`/payg/devices/${lamps[1]!.serial_number}/activity`).set(clerk.auth).expect(200);
    expect(activity.body.data.device_info.location_name).toBe('Kisumu Shop');

    // Every change is in the Activity Log, under devices.
    expect((await audit(org.id)).map((a) => a.action)).toEqual([
      'stock_location.created',
      'stock_location.created',
      'stock.moved',
      'stock.moved',
    ]);
    const logged = await t.http.get('/payg/audit-log').query({ category: 'devices' }).set(owner.auth).expect(200);
    expect(logged.body.data.map((e: { action: string }) => e.action)).toContain('stock.moved');
  });

  it('refuses a bad move whole: unknown serials (named), a device with a customer, an unknown place', async () => {
    const { org, user: owner } = await seedTenant(t);
    const shop = ZStockLocationReplySchema.parse((await add(owner, { name: 'Mombasa Shop' }).expect(201)).body).location;
    const lamp = await seedItem(t, org.id);
    const { item: out } = await seedCustomerWithDevice(t, org.id);

    const unknown = await move(owner, { serial_numbers: [lamp.serial_number, 'NOPE-1', 'NOPE-2'], location_id: shop.location_id }).expect(400);
    expect(unknown.body.message).toBe('serial_numbers: no device with serial number NOPE-1, NOPE-2 in your organization');
    const given = await move(owner, { serial_numbers: [lamp.serial_number, out.serial_number], location_id: shop.location_id }).expect(409);
    expect(given.body.message).toBe(`${out.serial_number} is with a customer: a device given out is not moved (take it back first)`);
    await move(owner, { serial_numbers: [lamp.serial_number], location_id: 999_999 }).expect(404);
    expect(await locationOf(org.id, lamp.serial_number)).toBeNull();
    expect((await movements(owner)).data).toEqual([]);

    for (const [body, message] of [
      [{ serial_numbers: [], location_id: shop.location_id }, 'serial_numbers: must name at least one device'],
      [{ serial_numbers: Array.from({ length: 501 }, (_, i) => `S${i}`), location_id: shop.location_id }, 'serial_numbers: must name at most 500 devices at a time'],
      [{ serial_numbers: 'SN-1', location_id: shop.location_id }, 'serial_numbers: must be a list of serial numbers'],
      [{ serial_numbers: [lamp.serial_number] }, "location_id: must be a place's id, or null for none"],
      [{ serial_numbers: [lamp.serial_number], location_id: 'shop' }, "location_id: must be a place's id, or null for none"],
      [{ serial_numbers: [lamp.serial_number], location_id: null, note: 'x'.repeat(301) }, 'note: must be at most 300 characters'],
    ] as const) {
      expect((await move(owner, body).expect(400)).body.message).toBe(message);
    }

    // Moving to none takes a device out of every place.
    await move(owner, { serial_numbers: [lamp.serial_number], location_id: shop.location_id }).expect(200);
    const out2 = ZStockMoveReplySchema.parse((await move(owner, { serial_numbers: [lamp.serial_number], location_id: null }).expect(200)).body);
    expect(out2).toMatchObject({ message: '1 device moved out of every stock location', moved: 1, location_id: null, location_name: null });
    expect(await locationOf(org.id, lamp.serial_number)).toBeNull();
  });

  it('keeps names unique without regard to case, lets only owners and admins manage places, and deletes only an empty one', async () => {
    const { org, user: owner } = await seedTenant(t);
    const staff = await seedUser(t, { organization_id: org.id, role: 'staff' });
    const admin = await seedUser(t, { organization_id: org.id, role: 'admin' });
    const depot = ZStockLocationReplySchema.parse((await add(admin, { name: 'Eldoret Depot' }).expect(201)).body).location;
    expect((await add(owner, { name: 'ELDORET depot' }).expect(409)).body.message).toBe('A stock location named ELDORET depot already exists');
    expect((await add(owner, { name: '  ' }).expect(400)).body.message).toBe('name: is required');
    expect((await add(owner, { name: 'x'.repeat(101) }).expect(400)).body.message).toBe('name: must be at most 100 characters');
    await add(staff, { name: 'Staff Shop' }).expect(403);
    await t.http.put(`/payg/stock-locations/${depot.location_id}`).set(staff.auth).send({ name: 'X' }).expect(403);
    await t.http.delete(`/payg/stock-locations/${depot.location_id}`).set(staff.auth).expect(403);

    const other = ZStockLocationReplySchema.parse((await add(owner, { name: 'Nakuru Shop' }).expect(201)).body).location;
    expect((await t.http.put(`/payg/stock-locations/${other.location_id}`).set(owner.auth).send({ name: 'eldoret DEPOT' }).expect(409)).body.message).toBe(
      'A stock location named eldoret DEPOT already exists',
    );
    const lamp = await seedItem(t, org.id);
    await move(staff, { serial_numbers: [lamp.serial_number], location_id: depot.location_id }).expect(200);

    // Renamed: the list says the new name, the history the one it had.
    const renamed = ZStockLocationReplySchema.parse(
      (await t.http.put(`/payg/stock-locations/${depot.location_id}`).set(owner.auth).send({ name: 'Eldoret Shop', description: 'Uganda Road' }).expect(200)).body,
    ).location;
    expect(renamed).toMatchObject({ name: 'Eldoret Shop', description: 'Uganda Road', counts: { available: 1, in_stock: 1 } });
    expect((await movements(owner, { serial_number: lamp.serial_number })).data[0]!.to_location).toBe('Eldoret Depot');
    await t.http.put('/payg/stock-locations/abc').set(owner.auth).send({ name: 'Y' }).expect(400);
    await t.http.put('/payg/stock-locations/999999').set(owner.auth).send({ name: 'Y' }).expect(404);

    // Not while a device is in stock there.
    expect((await t.http.delete(`/payg/stock-locations/${depot.location_id}`).set(owner.auth).expect(409)).body.message).toBe(
      'Eldoret Shop still holds 1 device: move them to another stock location first',
    );
    // Given out from it, the device does not hold it up, and keeps no place.
    const { customer } = await seedCustomerWithDevice(t, org.id);
    await t.http.post('/payg/items/assign').set(owner.auth).send({ customer_id: customer.id, item_serial_number: lamp.serial_number }).expect(200);
    expect((await t.http.delete(`/payg/stock-locations/${depot.location_id}`).set(owner.auth).expect(200)).body.message).toBe(
      'Stock location Eldoret Shop deleted',
    );
    expect(await locationOf(org.id, lamp.serial_number)).toBeNull();
    expect((await list(owner)).data.map((l) => l.name)).toEqual(['Nakuru Shop']);
    expect((await movements(owner, { serial_number: lamp.serial_number })).data.map((m) => m.to_location)).toEqual(['Eldoret Depot']);
    expect((await audit(org.id)).map((a) => a.action)).toEqual([
      'stock_location.created',
      'stock_location.created',
      'stock.moved',
      'stock_location.updated',
      'stock_location.deleted',
    ]);
  });

  it('adds devices at a place by its name, one at a time and from a CSV file (a row naming no place is its error)', async () => {
    const { org, user: owner } = await seedTenant(t);
    const shop = ZStockLocationReplySchema.parse((await add(owner, { name: 'Thika Shop' }).expect(201)).body).location;
    const added = ZItemSchema.parse(
      (await t.http.post('/payg/items/add').set(owner.auth).send({ serial_number: 'LOC-001', product_name: 'Lamp', location: 'thika shop' }).expect(201)).body,
    );
    expect(added).toMatchObject({ location_id: shop.location_id, location_name: 'Thika Shop' });
    const refused = await t.http.post('/payg/items/add').set(owner.auth).send({ serial_number: 'LOC-002', product_name: 'Lamp', location: 'Nowhere' }).expect(400);
    expect(refused.body.message).toBe('location: no stock location named Nowhere: add it in Stock Locations first');
    expect(await t.db.db.item.count({ where: { organization_id: org.id, serial_number: 'LOC-002' } })).toBe(0);

    const file = ['serial_number,product_name,location', 'LOC-010,Lamp,Thika Shop', 'LOC-011,Lamp,Nowhere', 'LOC-012,Lamp,'].join('\n');
    const report = ZCsvImportReportSchema.parse(
      (await t.http.post('/payg/items/add/bulk').set(owner.auth).attach('file', Buffer.from(file), 'devices.csv').expect(200)).body,
    );
    expect(report).toMatchObject({ rows: 3, imported: 2, errors: [{ row: 2, field: 'location', message: 'no stock location named Nowhere: add it in Stock Locations first' }] });
    expect(await locationOf(org.id, 'LOC-010')).toBe(shop.location_id);
    expect(await locationOf(org.id, 'LOC-012')).toBeNull();
    expect((await place(owner, shop.location_id)).counts).toMatchObject({ available: 2, in_stock: 2 });
  });

  it("exports the Products filters' devices as CSV: one place's for a stock take, with who has each one", async () => {
    const { org, user: owner } = await seedTenant(t);
    const clerk = await seedUser(t, { organization_id: org.id, role: 'staff' });
    const shop = ZStockLocationReplySchema.parse((await add(owner, { name: 'Embu Shop' }).expect(201)).body).location;
    const a = await seedItem(t, org.id, { serial_number: 'EXP-001', product_name: 'Lamp, 3 bulbs' });
    const b = await seedItem(t, org.id, { serial_number: 'EXP-002', product_name: '=cmd|calc', status: 'maintenance' });
    const { item: out, customer } = await seedCustomerWithDevice(t, org.id);
    await move(owner, { serial_numbers: [a.serial_number, b.serial_number], location_id: shop.location_id }).expect(200);

    const all = await t.http.get('/payg/products/export').set(clerk.auth).expect(200);
    expect(all.headers['content-type']).toMatch(/^text\/csv/);
    expect(all.headers['content-disposition']).toContain('products.csv');
    const lines = all.text.replace(/^\uFEFF/, '').trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'serial_number,product_name,product_type,manufacturer,model,description,price,status,product_oem,location,customer_id,customer_name,assigned_at,total_paid,credit_until,paid_off,token_count,created_at',
    );
    expect(lines).toHaveLength(4);
    // Oldest first; a comma quoted, a formula made harmless.
    expect(lines[1]).toMatch(/^EXP-001,"Lamp, 3 bulbs",,SunCo,,,20000\.00,available,,Embu Shop,,,,0\.00,,false,0,\d{4}-/);
    expect(lines[2]).toMatch(/^EXP-002,'=cmd\|calc,,SunCo,,,20000\.00,maintenance,,Embu Shop,/);
    expect(lines[3]).toContain(`${out.serial_number},`);
    expect(lines[3]).toContain(`,${customer.id},${customer.customer_name},`);

    const atShop = await t.http.get('/payg/products/export').query({ location_id: shop.location_id, status: 'unassigned' }).set(clerk.auth).expect(200);
    expect(atShop.text.trimEnd().split('\r\n').slice(1).map((l) => l.split(',')[0])).toEqual(['EXP-001', 'EXP-002']);
    const none = await t.http.get('/payg/products/export').query({ location_id: 'none' }).set(clerk.auth).expect(200);
    expect(none.text.trimEnd().split('\r\n').slice(1).map((l) => l.split(',')[0])).toEqual([out.serial_number]);
    const searched = await t.http.get('/payg/products/export').query({ search: 'exp-002' }).set(clerk.auth).expect(200);
    expect(searched.text.trimEnd().split('\r\n')).toHaveLength(2);
    expect((await t.http.get('/payg/products/export').query({ status: 'lost' }).set(clerk.auth).expect(400)).body.message).toMatch(/^status: /);

    // Written once the file is sent: the first export's entry.
    await settledAuditEntry(t, { organization_id: org.id, action: 'items.exported' });
    const [entry] = await t.db.platform.auditLog.findMany({ where: { organization_id: org.id, action: 'items.exported' }, orderBy: { id: 'asc' } });
    expect(entry).toMatchObject({ actor_username: clerk.username, description: 'Exported 3 devices to CSV' });
  });

  it('takes a repossessed device to the place that refurbishes, or leaves it where it was given from', async () => {
    const { org, user: owner } = await seedTenant(t);
    const shop = ZStockLocationReplySchema.parse((await add(owner, { name: 'Meru Shop' }).expect(201)).body).location;
    const workshop = ZStockLocationReplySchema.parse((await add(owner, { name: 'Nairobi Workshop' }).expect(201)).body).location;
    const given = async () => {
      const { item, customer } = await seedCustomerWithDevice(t, org.id);
      await t.db.pool.query('UPDATE items SET location_id = $3 WHERE organization_id = $1 AND item_id = $2', [org.id, item.id, shop.location_id]);
      return { item, customer };
    };
    const repossess = (serial: string, extra: object) =>
      t.http.post('/payg/items/repossess').set(owner.auth).send({ item_serial_number: serial, reason: 'No payment for 120 days', ...extra });

    // To the workshop: moved there, with the movement and its reason.
    const first = await given();
    const reply = (await repossess(first.item.serial_number, { location_id: workshop.location_id }).expect(200)).body;
    expect(reply).toMatchObject({ status: 'maintenance', location_id: workshop.location_id, location_name: 'Nairobi Workshop' });
    expect(await locationOf(org.id, first.item.serial_number)).toBe(workshop.location_id);
    expect((await movements(owner, { serial_number: first.item.serial_number })).data.map((m) => [m.from_location, m.to_location, m.note])).toEqual([
      ['Meru Shop', 'Nairobi Workshop', 'Repossessed: No payment for 120 days'],
    ]);
    expect((await place(owner, workshop.location_id)).counts).toMatchObject({ maintenance: 1, in_stock: 1 });

    // Left out: back on the shelf it was given from, no movement.
    const second = await given();
    expect((await repossess(second.item.serial_number, { status: 'available' }).expect(200)).body).toMatchObject({ location_id: shop.location_id, location_name: 'Meru Shop' });
    expect((await movements(owner, { serial_number: second.item.serial_number })).data).toEqual([]);
    expect((await place(owner, shop.location_id)).counts).toMatchObject({ available: 1, given_out: 0 });

    // null: out of every place. An unknown place refuses the whole repossession: no code, still the customer's.
    const third = await given();
    await repossess(third.item.serial_number, { location_id: 999_999 }).expect(404);
    expect(await t.db.db.item.findFirstOrThrow({ where: { organization_id: org.id, id: third.item.id }, select: { customer_id: true } })).toEqual({ customer_id: third.customer.id });
    expect(await t.db.db.tokenLog.count({ where: { organization_id: org.id, item_id: third.item.id } })).toBe(0);
    expect((await repossess(third.item.serial_number, { location_id: 'workshop' }).expect(400)).body.message).toBe("location_id: must be a stock location's id, or null for none");
    expect((await repossess(third.item.serial_number, { location_id: null }).expect(200)).body).toMatchObject({ location_id: null, location_name: null });
    expect(await locationOf(org.id, third.item.serial_number)).toBeNull();
    expect((await movements(owner, { serial_number: third.item.serial_number })).data.map((m) => [m.from_location, m.to_location])).toEqual([['Meru Shop', null]]);
  });

  it('compares a stock take with the place: found, missing, counted but elsewhere, of no device; changing no device', async () => {
    const { org, user: owner } = await seedTenant(t);
    const clerk = await seedUser(t, { organization_id: org.id, role: 'staff' });
    const shop = ZStockLocationReplySchema.parse((await add(owner, { name: 'Eldoret Shop' }).expect(201)).body).location;
    const depot = ZStockLocationReplySchema.parse((await add(owner, { name: 'Depot' }).expect(201)).body).location;
    const [a, b, c] = [
      await seedItem(t, org.id, { serial_number: `ST-A-${org.id}`, product_name: 'Lamp' }),
      await seedItem(t, org.id, { serial_number: `ST-B-${org.id}`, product_name: 'Lamp' }),
      await seedItem(t, org.id, { serial_number: `ST-C-${org.id}`, product_name: 'SHS 50W', status: 'maintenance' }),
    ];
    const inDepot = await seedItem(t, org.id, { serial_number: `ST-D-${org.id}`, product_name: 'Lamp' });
    const unplaced = await seedItem(t, org.id, { serial_number: `ST-E-${org.id}`, product_name: 'Radio' });
    const { item: given } = await seedCustomerWithDevice(t, org.id);
    await move(owner, { serial_numbers: [a.serial_number, b.serial_number, c.serial_number], location_id: shop.location_id }).expect(200);
    await move(owner, { serial_numbers: [inDepot.serial_number], location_id: depot.location_id }).expect(200);
    const before = await t.db.db.item.findMany({ where: { organization_id: org.id }, orderBy: { id: 'asc' } });

    // A staff member scans the shelf: a scanned twice, b not found, and three that Kidogo does not have here.
    const take = (body: object) => t.http.post(`/payg/stock-locations/${shop.location_id}/stock-take`).set(clerk.auth).send(body);
    const reply = ZStockTakeReplySchema.parse(
      (
        await take({
          serial_numbers: [a.serial_number.toLowerCase(), c.serial_number, ` ${a.serial_number} `, inDepot.serial_number, unplaced.serial_number, given.serial_number, 'NO-SUCH-9'],
          note: 'December count',
        }).expect(200)
      ).body,
    );
    expect(reply).toEqual({
      message: 'Stock take at Eldoret Shop: 2 devices of 3 found, 1 missing, 3 devices counted that Kidogo has elsewhere, 1 serial number of no device',
      location_id: shop.location_id,
      location_name: 'Eldoret Shop',
      expected: 3,
      counted: 6,
      duplicates: 1,
      found: 2,
      missing: [{ serial_number: b.serial_number, product_name: 'Lamp', status: 'available', location_name: 'Eldoret Shop', with_customer: false }],
      missing_count: 1,
      elsewhere: [
        { serial_number: inDepot.serial_number, product_name: 'Lamp', status: 'available', location_name: 'Depot', with_customer: false },
        { serial_number: unplaced.serial_number, product_name: 'Radio', status: 'available', location_name: null, with_customer: false },
        { serial_number: given.serial_number, product_name: given.product_name, status: 'assigned', location_name: null, with_customer: true },
      ].sort((x, y) => x.serial_number.localeCompare(y.serial_number)),
      elsewhere_count: 3,
      unknown: ['NO-SUCH-9'],
      unknown_count: 1,
    });
    // Nothing moved or changed; the count is in the Activity Log with its figures.
    expect(await t.db.db.item.findMany({ where: { organization_id: org.id }, orderBy: { id: 'asc' } })).toEqual(before);
    const entry = await t.db.platform.auditLog.findFirstOrThrow({ where: { organization_id: org.id, action: 'stock.counted' } });
    expect(entry).toMatchObject({ actor_username: clerk.username, entity_type: 'stock_location', entity_id: String(shop.location_id) });
    expect(entry.description).toBe(`${reply.message}, by ${clerk.username}`);
    expect(entry.metadata).toMatchObject({ expected: 3, found: 2, missing: [b.serial_number], unknown: ['NO-SUCH-9'], note: 'December count' });

    // Everything found: nothing missing.
    const full = ZStockTakeReplySchema.parse((await take({ serial_numbers: [a.serial_number, b.serial_number, c.serial_number] }).expect(200)).body);
    expect(full).toMatchObject({ message: 'Stock take at Eldoret Shop: 3 devices of 3 found, none missing', found: 3, missing: [], missing_count: 0 });

    // Bad input names its field and writes nothing; an unknown place is a 404.
    const entries = await t.db.platform.auditLog.count({ where: { organization_id: org.id } });
    expect((await take({ serial_numbers: [] }).expect(400)).body.errors[0]).toMatchObject({ field: 'serial_numbers', message: 'must name at least one device' });
    expect((await take({ serial_numbers: ['A', ''] }).expect(400)).body.errors[0]).toMatchObject({ field: 'serial_numbers.1', message: 'is required' });
    expect((await take({ serial_numbers: Array.from({ length: 20_001 }, (_, i) => `S${i}`) }).expect(400)).body.errors[0]).toMatchObject({
      field: 'serial_numbers',
      message: 'must name at most 20,000 devices at a time',
    });
    await t.http.post('/payg/stock-locations/999999/stock-take').set(clerk.auth).send({ serial_numbers: ['X'] }).expect(404);
    expect(await t.db.platform.auditLog.count({ where: { organization_id: org.id } })).toBe(entries);
  });

  it("keeps each organization's places and devices to itself", async () => {
    const a = await seedTenant(t);
    const b = await seedTenant(t);
    const aShop = ZStockLocationReplySchema.parse((await add(a.user, { name: 'Shared Name' }).expect(201)).body).location;
    // The same name in another organization is another place.
    const bShop = ZStockLocationReplySchema.parse((await add(b.user, { name: 'Shared Name' }).expect(201)).body).location;
    const aLamp = await seedItem(t, a.org.id);
    await move(a.user, { serial_numbers: [aLamp.serial_number], location_id: aShop.location_id }).expect(200);

    expect((await list(b.user)).data.map((l) => l.location_id)).toEqual([bShop.location_id]);
    await t.http.get(`/payg/stock-locations/${aShop.location_id}`).set(b.user.auth).expect(404);
    await t.http.put(`/payg/stock-locations/${aShop.location_id}`).set(b.user.auth).send({ name: 'Mine' }).expect(404);
    await t.http.delete(`/payg/stock-locations/${aShop.location_id}`).set(b.user.auth).expect(404);
    await t.http.post(`/payg/stock-locations/${aShop.location_id}/stock-take`).set(b.user.auth).send({ serial_numbers: ['X'] }).expect(404);
    // B can neither move A's device nor move its own into A's place.
    expect((await move(b.user, { serial_numbers: [aLamp.serial_number], location_id: bShop.location_id }).expect(400)).body.message).toBe(
      `serial_numbers: no device with serial number ${aLamp.serial_number} in your organization`,
    );
    const bLamp = await seedItem(t, b.org.id);
    await move(b.user, { serial_numbers: [bLamp.serial_number], location_id: aShop.location_id }).expect(404);
    expect((await movements(b.user)).data).toEqual([]);
    expect((await movements(b.user, { serial_number: aLamp.serial_number })).data).toEqual([]);
    expect((await products(b.user, { location_id: aShop.location_id })).items).toEqual([]);
    expect((await t.http.post('/payg/items/add').set(b.user.auth).send({ serial_number: 'ISO-1', product_name: 'Lamp', location: 'Shared Name' }).expect(201)).body.location_id).toBe(
      bShop.location_id,
    );
    // A's device counted at B's place is no device of B's.
    const bTake = ZStockTakeReplySchema.parse(
      (await t.http.post(`/payg/stock-locations/${bShop.location_id}/stock-take`).set(b.user.auth).send({ serial_numbers: [aLamp.serial_number] }).expect(200)).body,
    );
    expect(bTake).toMatchObject({ found: 0, elsewhere: [], unknown: [aLamp.serial_number], unknown_count: 1 });
    expect((await place(a.user, aShop.location_id)).counts).toMatchObject({ available: 1, in_stock: 1 });
  });
});
