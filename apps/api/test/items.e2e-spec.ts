import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ZCsvImportReportSchema, ZItemAssignReplySchema, ZItemListReplySchema, ZItemSchema, type Item } from '@kidogo/contracts';
import { deriveStartingCode } from '@kidogo/openpaygo';
import { DeviceSecrets } from '../src/devices/device-secrets.js';
import { ANCHORED_FROM } from '../src/common/list-counts.js';
import { Prisma } from '../src/generated/prisma/client.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { seedCustomer, seedItem, seedTenant } from './support/factories.js';
import { csvText, expectPageOf, recordPayment } from './support/catalog.js';

const SECRET = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';
const noSecrets = (body: unknown) => expect(JSON.stringify(body)).not.toMatch(/secret|starting_code|_enc|v1\./);

describe('devices (items)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const row = (orgId: string, serial: string) =>
    t.db.db.item.findUniqueOrThrow({ where: { organization_id_serial_number: { organization_id: orgId, serial_number: serial } } });

  describe('POST /items/add', () => {
    it('adds a device with defaults, a generated and sealed factory secret, and no secret in the reply', async () => {
      const { user, org } = await seedTenant(t);
      const res = await t.http
        .post('/payg/items/add')
        .set(user.auth)
        .send({ serial_number: ' sk-100 200 ', product_name: 'Solar Kit 100', manufacturer: 'SunCo', organization_id: 'other' })
        .expect(201);
      noSecrets(res.body);
      const item = ZItemSchema.parse(res.body);
      expect(item).toMatchObject({
        serial_number: 'sk-100 200',
        price: '0.00',
        status: 'available',
        is_assigned: false,
        customer_id: null,
        organization_id: org.id,
        token_count: 1,
        paid_off: false,
      });
      const stored = await row(org.id, 'sk-100 200');
      expect(stored.serial_normalized).toBe('SK100200');
      expect(stored.secret_key_enc).toMatch(/^v1\./);
      const secret = t.app.get(DeviceSecrets).open(stored);
      expect(secret.secretKey).toMatch(/^[0-9a-f]{32}$/);
      expect(secret.startingCode).toBe(deriveStartingCode(secret.secretKey));
    });

    it("keeps the device maker's secret key and starting code, deriving the code when only the key is given", async () => {
      const { user, org } = await seedTenant(t);
      await t.http
        .post('/payg/items/add')
        .set(user.auth)
        .send({ serial_number: 'F-1', product_name: 'Lamp', price: '1500.5', status: 'maintenance', secret_key: SECRET.toUpperCase(), starting_code: '123456789' })
        .expect(201);
      await t.http.post('/payg/items/add').set(user.auth).send({ serial_number: 'F-2', product_name: 'Lamp', price: 99, secret_key: SECRET }).expect(201);
      const secrets = t.app.get(DeviceSecrets);
      const f1 = await row(org.id, 'F-1');
      expect(secrets.open(f1)).toEqual({ secretKey: SECRET, startingCode: 123456789 });
      expect(f1.price.toFixed(2)).toBe('1500.50');
      expect(f1.status).toBe('maintenance');
      expect(secrets.open(await row(org.id, 'F-2'))).toEqual({ secretKey: SECRET, startingCode: deriveStartingCode(SECRET) });
    });

    it('names each invalid field', async () => {
      const { user, org } = await seedTenant(t);
      const res = await t.http
        .post('/payg/items/add')
        .set(user.auth)
        .send({ serial_number: '', price: -1, status: 'lost', secret_key: 'xyz', starting_code: 1_000_000_000 })
        .expect(400);
      expect(res.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(
        ['price', 'product_name', 'secret_key', 'serial_number', 'starting_code', 'status'].sort(),
      );
      expect(res.body.message).toContain('status: must be one of available, assigned, maintenance, retired');
      expect(res.body.message).toContain('secret_key: must be 32 hexadecimal characters');
      for (const price of ['abc', 10.123, '1e999']) {
        await t.http.post('/payg/items/add').set(user.auth).send({ serial_number: 'P', product_name: 'x', price }).expect(400);
      }
      await t.http.post('/payg/items/add').set(user.auth).send({ serial_number: 'P', product_name: 'x', starting_code: 1.5 }).expect(400);
      expect(await t.db.db.item.count({ where: { organization_id: org.id } })).toBe(0);
    });

    it('refuses a serial number the organization already has, also written differently', async () => {
      const a = await seedTenant(t);
      const b = await seedTenant(t);
      await t.http.post('/payg/items/add').set(a.user.auth).send({ serial_number: 'SN-001', product_name: 'Kit' }).expect(201);
      const same = await t.http.post('/payg/items/add').set(a.user.auth).send({ serial_number: 'SN-001', product_name: 'Kit' }).expect(409);
      expect(same.body.detail).toBe('A device with serial number SN-001 already exists');
      const spelled = await t.http.post('/payg/items/add').set(a.user.auth).send({ serial_number: 'sn 001', product_name: 'Kit' }).expect(409);
      expect(spelled.body.detail).toBe('A device with serial number SN-001 already exists (sn 001 is the same serial written differently)');
      await t.http.post('/payg/items/add').set(b.user.auth).send({ serial_number: 'SN-001', product_name: 'Kit' }).expect(201);
    });
  });

  describe('GET /items, POST /items/fetch and POST /items/search', () => {
    it('lists newest first with serial number and OEM filters and never shows secrets', async () => {
      const a = await seedTenant(t);
      const b = await seedTenant(t);
      for (let i = 0; i < 12; i++) {
        await seedItem(t, a.org.id, { serial_number: `LIST-${String(i).padStart(2, '0')}`, product_oem: i % 3 === 0 ? 'SunKing' : 'dlight' });
      }
      await seedItem(t, b.org.id, { serial_number: 'LIST-B', product_oem: 'SunKing' });
      const first = ZItemListReplySchema.parse((await t.http.get('/payg/items').set(a.user.auth).expect(200)).body);
      noSecrets(first);
      expect(first.data).toHaveLength(10);
      expect(first.data[0].serial_number).toBe('LIST-11');
      expect(first.pagination).toEqual({ total: 12, total_pages: 2, limit: 10, offset: 0 });
      const bySerial = ZItemListReplySchema.parse((await t.http.get('/payg/items?serial_number=list-0').set(a.user.auth).expect(200)).body);
      expect(bySerial.pagination.total).toBe(10);
      const byOem = ZItemListReplySchema.parse((await t.http.get('/payg/items?product_oem=sunking&limit=100').set(a.user.auth).expect(200)).body);
      expect(byOem.data.map((i) => i.serial_number)).toEqual(['LIST-09', 'LIST-06', 'LIST-03', 'LIST-00']);
      const past = ZItemListReplySchema.parse((await t.http.get('/payg/items?offset=100').set(a.user.auth).expect(200)).body);
      expect(past).toEqual({ data: [], pagination: { total: 12, total_pages: 2, limit: 10, offset: 100 } });
      for (const qs of ['limit=0', 'limit=-1', 'limit=101', 'offset=-3']) await t.http.get(`/payg/items?${qs}`).set(a.user.auth).expect(400);
      const foreign = ZItemListReplySchema.parse((await t.http.get('/payg/items?serial_number=LIST-0').set(b.user.auth).expect(200)).body);
      expect(foreign.data).toEqual([]);
    });

    it('fetches one device by serial in any spelling; 404 for unknown and foreign serials', async () => {
      const a = await seedTenant(t);
      const b = await seedTenant(t);
      const item = await seedItem(t, a.org.id, { serial_number: 'FETCH-77 A' });
      const res = await t.http.post('/payg/items/fetch').set(a.user.auth).send({ serial_number: 'FETCH-77 A' }).expect(200);
      noSecrets(res.body);
      expect(ZItemSchema.parse(res.body).item_id).toBe(item.id);
      expect((await t.http.post('/payg/items/fetch').set(a.user.auth).send({ serial_number: 'fetch77a' }).expect(200)).body.item_id).toBe(item.id);
      await t.http.post('/payg/items/fetch').set(a.user.auth).send({ serial_number: 'NOPE' }).expect(404);
      const foreign = await t.http.post('/payg/items/fetch').set(b.user.auth).send({ serial_number: 'FETCH-77 A' }).expect(404);
      expect(foreign.body.detail).toBe('Device not found');
      await t.http.post('/payg/items/fetch').set(a.user.auth).send({}).expect(400);
    });

    it('searches serial number, product name and manufacturer, five at a time by default', async () => {
      const a = await seedTenant(t);
      const b = await seedTenant(t);
      const customer = await seedCustomer(t, a.org.id);
      for (let i = 0; i < 7; i++) await seedItem(t, a.org.id, { serial_number: `SRCH-${i}`, product_name: i === 6 ? 'Solar TV 24"' : 'Lamp' });
      await t.db.db.item.updateMany({ where: { organization_id: a.org.id, serial_number: 'SRCH-0' }, data: { manufacturer: 'Bboxx' } });
      await seedItem(t, a.org.id, { serial_number: 'SRCH-ASSIGNED', customer_id: customer.id });
      await seedItem(t, b.org.id, { serial_number: 'SRCH-B' });
      const search = async (auth: { Authorization: string }, body: object) =>
        ZItemListReplySchema.parse((await t.http.post('/payg/items/search').set(auth).send(body).expect(200)).body);
      const all = await search(a.user.auth, { query: 'srch' });
      expect(all.data).toHaveLength(5);
      expect(all.pagination).toEqual({ total: 8, total_pages: 2, limit: 5, offset: 0 });
      expect((await search(a.user.auth, { query: 'solar tv' })).data.map((i) => i.serial_number)).toEqual(['SRCH-6']);
      expect((await search(a.user.auth, { query: 'BBOXX' })).data.map((i) => i.serial_number)).toEqual(['SRCH-0']);
      expect((await search(a.user.auth, { query: 'srch', is_assigned: false, limit: 50 })).pagination.total).toBe(7);
      expect((await search(a.user.auth, { query: '', is_assigned: true })).data.map((i) => i.serial_number)).toEqual(['SRCH-ASSIGNED']);
      expect((await search(b.user.auth, { query: 'SRCH' })).data.map((i) => i.serial_number)).toEqual(['SRCH-B']);
      await t.http.post('/payg/items/search').set(a.user.auth).send({ query: 'x', limit: 0 }).expect(400);
    });

    it('pages deep into a search from the kept place of a match before it, as ILIKE and OFFSET on the rows would', async () => {
      const { org, user } = await seedTenant(t);
      await seedItem(t, org.id, { serial_number: 'DEEP-0' });
      // 450 more, created_at shared by many (ties broken by id).
      await t.db.query(Prisma.sql`
        INSERT INTO items (organization_id, serial_number, serial_normalized, product_name, secret_key_enc, starting_code_enc, created_at)
        SELECT organization_id, 'DEEP-' || g, 'DEEP' || g, product_name, secret_key_enc, starting_code_enc, created_at - (g % 50) * interval '1 minute'
        FROM items, generate_series(1, 450) g WHERE organization_id = ${org.id} AND serial_number = 'DEEP-0'`);
      const age = (column: string) =>
        t.db.query(Prisma.sql`UPDATE list_counts SET ${Prisma.raw(column)} = now() - interval '1 hour' WHERE organization_id = ${org.id} RETURNING 1`);
      for (const term of ['deep-', 'DEEP-1']) {
        const expected = (
          await t.db.query<{ serial_number: string }>(Prisma.sql`
            SELECT serial_number FROM items WHERE organization_id = ${org.id} AND serial_number ILIKE ${`%${term}%`}
            ORDER BY created_at DESC, item_id DESC`)
        ).map((r) => r.serial_number);
        expect(expected.length).toBeGreaterThan(ANCHORED_FROM);
        for (const before of [null, 'anchored_at', 'counted_at']) {
          for (const offset of [ANCHORED_FROM, ANCHORED_FROM + 5, 250, expected.length - 10, expected.length - 1]) {
            if (before) await age(before);
            const page = ZItemListReplySchema.parse(
              (await t.http.get(`/payg/items?serial_number=${term}&limit=10&offset=${offset}`).set(user.auth).expect(200)).body,
            );
            expectPageOf({ term, before, offset }, { keys: page.data.map((i) => i.serial_number), total: page.pagination.total }, expected, offset);
          }
        }
      }
    });
  });

  describe('PUT and DELETE /items/{serial_number}', () => {
    it('edits the fields sent; status follows the assignment', async () => {
      const { user, org } = await seedTenant(t);
      const customer = await seedCustomer(t, org.id);
      await seedItem(t, org.id, { serial_number: 'ED/1' });
      const res = await t.http
        .put(`/payg/items/${encodeURIComponent('ED/1')}`)
        .set(user.auth)
        .send({ product_name: 'Renamed', price: '2500', product_oem: '', model: 'X2', status: 'maintenance' })
        .expect(200);
      noSecrets(res.body);
      expect(ZItemSchema.parse(res.body)).toMatchObject({ product_name: 'Renamed', price: '2500.00', product_oem: null, model: 'X2', status: 'maintenance' });
      const assigned = await t.http.put('/payg/items/ED%2F1').set(user.auth).send({ status: 'assigned' }).expect(400);
      expect(assigned.body.message).toContain('status: a device becomes assigned by assigning it to a customer');
      await t.http.put('/payg/items/ED%2F1').set(user.auth).send({ status: 'available' }).expect(200);
      await t.http.post('/payg/items/assign').set(user.auth).send({ customer_id: customer.id, item_serial_number: 'ED/1' }).expect(200);
      const retire = await t.http.put('/payg/items/ED%2F1').set(user.auth).send({ status: 'retired' }).expect(409);
      expect(retire.body.detail).toBe('Device ED/1 is assigned to a customer; unassign it before making it retired');
      // An assigned device can go for maintenance and come back.
      await t.http.put('/payg/items/ED%2F1').set(user.auth).send({ status: 'maintenance' }).expect(200);
      expect((await t.http.put('/payg/items/ED%2F1').set(user.auth).send({ status: 'assigned' }).expect(200)).body.status).toBe('assigned');
      await t.http.put('/payg/items/ED%2F1').set(user.auth).send({ price: -5 }).expect(400);
      await t.http.put('/payg/items/NOPE').set(user.auth).send({ price: 5 }).expect(404);
      expect(await t.db.platform.auditLog.count({ where: { organization_id: org.id, action: 'item.status_changed' } })).toBe(4);
    });

    it('deletes an unassigned device without history and refuses the others, saying why', async () => {
      const { user, org } = await seedTenant(t);
      const customer = await seedCustomer(t, org.id);
      await seedItem(t, org.id, { serial_number: 'DEL-1' });
      await seedItem(t, org.id, { serial_number: 'DEL-2', customer_id: customer.id });
      const paid = await seedItem(t, org.id, { serial_number: 'DEL-3' });
      await recordPayment(t, org.id, { customer_id: customer.id, item_id: paid.id, amount: '50.00' });
      await t.db.db.tokenLog.create({
        data: { organization_id: org.id, item_id: paid.id, serial_number: 'DEL-3', token_value: '123456789', token_type: 'add_time', token_count: 2, value: 1 },
      });

      expect((await t.http.delete('/payg/items/DEL-1').set(user.auth).expect(200)).body.message).toBe('Device DEL-1 deleted');
      await t.http.post('/payg/items/fetch').set(user.auth).send({ serial_number: 'DEL-1' }).expect(404);
      const assigned = await t.http.delete('/payg/items/DEL-2').set(user.auth).expect(409);
      expect(assigned.body.detail).toBe(`Device DEL-2 is assigned to customer ${customer.customer_name}; unassign it first`);
      const history = await t.http.delete('/payg/items/DEL-3').set(user.auth).expect(409);
      expect(history.body.detail).toBe('Device DEL-3 has 1 payment(s) and 1 token(s); set its status to retired instead of deleting it');
      await t.http.delete('/payg/items/DEL-1').set(user.auth).expect(404);
      expect(await t.db.platform.auditLog.count({ where: { organization_id: org.id, action: 'item.deleted' } })).toBe(1);
    });

    it("cannot edit or delete another organization's device", async () => {
      const a = await seedTenant(t);
      const b = await seedTenant(t);
      await seedItem(t, a.org.id, { serial_number: 'MINE-1', product_name: 'Original' });
      await t.http.put('/payg/items/MINE-1').set(b.user.auth).send({ product_name: 'Hijacked', status: 'retired' }).expect(404);
      await t.http.delete('/payg/items/MINE-1').set(b.user.auth).expect(404);
      expect(await row(a.org.id, 'MINE-1')).toMatchObject({ product_name: 'Original', status: 'available' });
    });
  });

  describe('POST /items/assign and /items/unassign', () => {
    it('assigns a device, records the history, and does nothing when assigned again to the same customer', async () => {
      const { user, org } = await seedTenant(t);
      const customer = await seedCustomer(t, org.id);
      const item = await seedItem(t, org.id, { serial_number: 'AS-1' });
      const res = await t.http
        .post('/payg/items/assign')
        .set(user.auth)
        .send({ customer_id: String(customer.id), item_serial_number: 'AS-1', organization_id: '' })
        .expect(200);
      noSecrets(res.body);
      const reply = ZItemAssignReplySchema.parse(res.body);
      expect(reply.changed).toBe(true);
      expect(reply.item).toMatchObject({ is_assigned: true, status: 'assigned', customer_id: customer.id, customer_name: customer.customer_name });
      expect(reply.item.assigned_at).not.toBeNull();
      const again = ZItemAssignReplySchema.parse(
        (await t.http.post('/payg/items/assign').set(user.auth).send({ customer_id: customer.id, item_serial_number: 'as 1' }).expect(200)).body,
      );
      expect(again.changed).toBe(false);
      expect(again.item.assigned_at).toBe(reply.item.assigned_at);
      const history = await t.db.db.itemAssignment.findMany({ where: { organization_id: org.id, item_id: item.id } });
      expect(history).toHaveLength(1);
      expect(history[0]).toMatchObject({ customer_id: customer.id, assigned_by: user.username, unassigned_at: null });
    });

    it('refuses a device assigned to someone else, a retired or serviced device, and unknown ids', async () => {
      const { user, org } = await seedTenant(t);
      const [c1, c2] = [await seedCustomer(t, org.id), await seedCustomer(t, org.id)];
      await seedItem(t, org.id, { serial_number: 'AS-2', customer_id: c1.id });
      await seedItem(t, org.id, { serial_number: 'AS-RET', status: 'retired' });
      await seedItem(t, org.id, { serial_number: 'AS-FIX', status: 'maintenance' });
      const assign = (customer_id: number, item_serial_number: string) =>
        t.http.post('/payg/items/assign').set(user.auth).send({ customer_id, item_serial_number });
      expect((await assign(c2.id, 'AS-2').expect(409)).body.detail).toBe('Device AS-2 is already assigned to another customer');
      expect((await assign(c2.id, 'AS-RET').expect(409)).body.detail).toBe('Device AS-RET is retired and cannot be assigned');
      expect((await assign(c2.id, 'AS-FIX').expect(409)).body.detail).toContain('Device AS-FIX is under maintenance');
      expect((await assign(999_999, 'AS-RET').expect(404)).body.detail).toBe('Customer not found');
      expect((await assign(c2.id, 'NO-SUCH').expect(404)).body.detail).toBe('Device not found');
      await t.http.post('/payg/items/assign').set(user.auth).send({ customer_id: 'x', item_serial_number: '' }).expect(400);
      expect((await row(org.id, 'AS-2')).customer_id).toBe(c1.id);
    });

    it('lets exactly one of two simultaneous assignments of a device win', async () => {
      const { user, org } = await seedTenant(t);
      const customers = await Promise.all(Array.from({ length: 6 }, () => seedCustomer(t, org.id)));
      const item = await seedItem(t, org.id, { serial_number: 'RACE-1' });
      const replies = await Promise.all(
        customers.map((c) => t.http.post('/payg/items/assign').set(user.auth).send({ customer_id: c.id, item_serial_number: 'RACE-1' })),
      );
      expect(replies.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);
      const winner = customers[replies.findIndex((r) => r.status === 200)];
      expect((await row(org.id, 'RACE-1')).customer_id).toBe(winner.id);
      expect(await t.db.db.itemAssignment.count({ where: { organization_id: org.id, item_id: item.id } })).toBe(1);
    });

    it("never assigns across organizations: another organization's device or customer is unknown", async () => {
      const a = await seedTenant(t);
      const b = await seedTenant(t);
      const customerA = await seedCustomer(t, a.org.id);
      const customerB = await seedCustomer(t, b.org.id);
      await seedItem(t, a.org.id, { serial_number: 'X-ORG' });
      await t.http.post('/payg/items/assign').set(b.user.auth).send({ customer_id: customerB.id, item_serial_number: 'X-ORG' }).expect(404);
      await t.http.post('/payg/items/assign').set(b.user.auth).send({ customer_id: customerA.id, item_serial_number: 'X-ORG' }).expect(404);
      await t.http
        .post('/payg/items/assign')
        .set(b.user.auth)
        .send({ customer_id: customerA.id, item_serial_number: 'X-ORG', organization_id: a.org.id })
        .expect(404);
      await t.http.post('/payg/items/unassign').set(b.user.auth).send({ item_serial_number: 'X-ORG' }).expect(404);
      expect(await row(a.org.id, 'X-ORG')).toMatchObject({ is_assigned: false, customer_id: null });
    });

    it('unassigns: the device is available again and the history row is closed', async () => {
      const { user, org } = await seedTenant(t);
      const [c1, c2] = [await seedCustomer(t, org.id), await seedCustomer(t, org.id)];
      const item = await seedItem(t, org.id, { serial_number: 'UN-1' });
      await t.http.post('/payg/items/assign').set(user.auth).send({ customer_id: c1.id, item_serial_number: 'UN-1' }).expect(200);
      const res = await t.http.post('/payg/items/unassign').set(user.auth).send({ item_serial_number: 'UN-1' }).expect(200);
      expect(res.body.item).toMatchObject({ is_assigned: false, status: 'available', customer_id: null, assigned_at: null });
      expect((await t.http.post('/payg/items/unassign').set(user.auth).send({ item_serial_number: 'UN-1' }).expect(409)).body.detail).toBe(
        'Device UN-1 is not assigned to a customer',
      );
      await t.http.post('/payg/items/assign').set(user.auth).send({ customer_id: c2.id, item_serial_number: 'UN-1' }).expect(200);
      const history = await t.db.db.itemAssignment.findMany({ where: { organization_id: org.id, item_id: item.id }, orderBy: { id: 'asc' } });
      expect(history.map((h) => [h.customer_id, h.unassigned_at !== null])).toEqual([
        [c1.id, true],
        [c2.id, false],
      ]);
    });
  });

  describe('POST /items/add/bulk', () => {
    const upload = (auth: { Authorization: string }, body: string, field = 'file') =>
      t.http.post('/payg/items/add/bulk').set(auth).attach(field, Buffer.from(body), 'devices.csv');

    it("imports the device maker's file with its factory secrets, skipping known serials and reporting bad rows", async () => {
      const { user, org } = await seedTenant(t);
      await seedItem(t, org.id, { serial_number: 'BULK-EXISTING' });
      const file = csvText([
        'serial_number,product_name,manufacturer,price,status,product_oem,secret_key,starting_code',
        `BULK-1,Solar Kit,SunCo,1500.50,,SunKing,${SECRET},123456789`,
        'BULK-2,"Lamp, small",SunCo,,maintenance,,,',
        'bulk existing,Dup,SunCo,1,,,,',
        'BULK-1,Dup in file,SunCo,1,,,,',
        'BULK-3,Bad key,SunCo,1,,,nothex,',
        'BULK-4,Bad price,SunCo,-3,,,,',
        ',No serial,SunCo,1,,,,',
      ]);
      const report = ZCsvImportReportSchema.parse((await upload(user.auth, file).expect(200)).body);
      expect(report).toMatchObject({ rows: 7, imported: 2, skipped: 5, duplicates: 2 });
      expect(report.errors).toEqual([
        { row: 5, field: 'secret_key', message: 'must be 32 hexadecimal characters' },
        { row: 6, field: 'price', message: 'must be at least 0' },
        { row: 7, field: 'serial_number', message: 'is required' },
      ]);
      const secrets = t.app.get(DeviceSecrets);
      const b1 = await row(org.id, 'BULK-1');
      expect(b1).toMatchObject({ product_name: 'Solar Kit', product_oem: 'SunKing', status: 'available', serial_normalized: 'BULK1' });
      expect(b1.price.toFixed(2)).toBe('1500.50');
      expect(secrets.open(b1)).toEqual({ secretKey: SECRET, startingCode: 123456789 });
      const b2 = await row(org.id, 'BULK-2');
      expect(b2).toMatchObject({ product_name: 'Lamp, small', status: 'maintenance' });
      expect(secrets.open(b2).startingCode).toBe(deriveStartingCode(secrets.open(b2).secretKey));
      const again = ZCsvImportReportSchema.parse((await upload(user.auth, file).expect(200)).body);
      expect(again.imported).toBe(0);
      expect(await t.db.db.importJob.count({ where: { organization_id: org.id, kind: 'items' } })).toBe(2);
    });

    it('keeps the token count of a device moved from another system, so its next code is one it takes', async () => {
      const { user, org } = await seedTenant(t);
      const file = csvText([
        'serial_number,product_name,secret_key,starting_code,token_count',
        `MOVED-1,Solar Kit,${SECRET},123456789,57`,
        'NEW-1,Solar Kit,,,',
        'MOVED-2,Solar Kit,,,-4',
        'MOVED-3,Solar Kit,,,twelve',
      ]);
      const report = ZCsvImportReportSchema.parse((await upload(user.auth, file).expect(200)).body);
      expect(report).toMatchObject({ rows: 4, imported: 2 });
      expect(report.errors).toEqual([
        { row: 3, field: 'token_count', message: 'must be at least 0' },
        { row: 4, field: 'token_count', message: 'must be a whole number' },
      ]);
      expect([(await row(org.id, 'MOVED-1')).token_count, (await row(org.id, 'NEW-1')).token_count]).toEqual([57, 1]);
      const code = await t.http.post('/payg/generate-token-by-days').set(user.auth).send({ serial_number: 'MOVED-1', number_of_days: 3 }).expect(200);
      expect(code.body.token_count).toBeGreaterThan(57);
      // One at a time too.
      const added = await t.http.post('/payg/items/add').set(user.auth).send({ serial_number: 'MOVED-4', product_name: 'Lamp', token_count: 12 }).expect(201);
      expect(added.body.token_count).toBe(12);
    });

    it("imports into the caller's organization only: another organization's serials do not count as duplicates", async () => {
      const a = await seedTenant(t);
      const b = await seedTenant(t);
      await seedItem(t, a.org.id, { serial_number: 'SHARED-1', product_name: 'A kit' });
      const report = ZCsvImportReportSchema.parse((await upload(b.user.auth, csvText(['serial_number,product_name', 'SHARED-1,B kit'])).expect(200)).body);
      expect(report).toMatchObject({ imported: 1, duplicates: 0 });
      expect((await row(a.org.id, 'SHARED-1')).product_name).toBe('A kit');
      expect((await row(b.org.id, 'SHARED-1')).product_name).toBe('B kit');
    });

    it('refuses files without the required columns, and asks for the file field', async () => {
      const { user, org } = await seedTenant(t);
      expect((await upload(user.auth, csvText(['serial_number,price', 'X,1'])).expect(400)).body.message).toContain(
        'file: missing required column product_name',
      );
      expect((await upload(user.auth, csvText(['serial_number,product_name', 'X,Y']), 'csv_file').expect(400)).body.message).toContain(
        'file: send the file in the multipart field "file"',
      );
      expect(await t.db.db.item.count({ where: { organization_id: org.id } })).toBe(0);
    });

    it('imports 10,000 devices', async () => {
      const { user, org } = await seedTenant(t);
      const lines = ['serial_number,product_name,manufacturer,price'];
      for (let i = 0; i < 10_000; i++) lines.push(`MASS-${i},Solar Home System,SunCo,${(i % 50) * 100}`);
      const started = Date.now();
      const report = ZCsvImportReportSchema.parse((await upload(user.auth, csvText(lines)).expect(200)).body);
      console.log(`device import: 10,000 rows in ${Date.now() - started} ms (server: ${report.duration_ms} ms)`);
      expect(report).toMatchObject({ imported: 10_000, errors: [] });
      expect(await t.db.db.item.count({ where: { organization_id: org.id } })).toBe(10_000);
      const list = ZItemListReplySchema.parse((await t.http.get('/payg/items?limit=100').set(user.auth).expect(200)).body);
      list.data.forEach((i: Item) => expect(i.serial_number).toMatch(/^MASS-/));
      noSecrets(list);
    }, 120_000);
  });
});
