import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  ZCustomerInsightsSchema,
  ZCustomerItemsReplySchema,
  ZCustomerListReplySchema,
  ZCustomerPaymentsReplySchema,
  ZCustomerSchema,
  ZCustomerStatusReplySchema,
  ZErrorSchema,
} from '@kidogo/contracts';
import { createTestApp, type TestApp } from './support/test-app.js';
import { seedCustomer, seedCustomerWithDevice, seedItem, seedTenant } from './support/factories.js';
import { recordPayment } from './support/catalog.js';

const DAY = 86_400_000;

describe('customers', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const full = {
    customer_name: '  Amina Wanjiru  ',
    id_number: ' 12345678 ',
    phone_contact: '0712 345 678',
    email: 'amina@example.co.ke',
    country: 'Kenya',
    gender: 'female',
    date_of_birth: '1990-05-15',
    marital_status: 'Married',
    county: 'Nakuru',
    constituency: 'Naivasha',
    ward: 'Hells Gate',
    sub_location: '',
    village: '   ',
    postal_address: 'P.O. Box 12, Naivasha',
    occupation: 'Farmer',
    employer_name: null,
    education_level: "bachelor's degree",
    preferred_language: 'Swahili',
    customer_type: 'business',
    agent_id: 'AG-7',
    status: 'inactive',
  };

  describe('POST /register-customer and /add-customer', () => {
    it('registers with trimming, empty optional fields as null and choices in their canonical spelling', async () => {
      const { user } = await seedTenant(t);
      const res = await t.http.post('/payg/register-customer').set(user.auth).send({ ...full, organization_id: 'someone-else' }).expect(201);
      const c = ZCustomerSchema.parse(res.body);
      expect(c).toMatchObject({
        customer_name: 'Amina Wanjiru',
        id_number: '12345678',
        phone_contact: '0712 345 678',
        gender: 'Female',
        education_level: "Bachelor's Degree",
        date_of_birth: '1990-05-15',
        sub_location: null,
        village: null,
        employer_name: null,
        preferred_language: 'Swahili',
        customer_type: 'business',
        status: 'inactive',
        organization_id: user.organization_id,
      });
      // Stored in the caller's organization, with the phone in the form the payment matcher uses.
      const row = await t.db.db.customer.findUnique({
        where: { organization_id_id: { organization_id: user.organization_id, id: c.customer_id } },
      });
      expect(row?.phone_normalized).toBe('254712345678');
      expect(await t.db.platform.customer.count({ where: { organization_id: 'someone-else' } })).toBe(0);
    });

    it('applies the defaults and keeps an unparsable date of birth as null', async () => {
      const { user } = await seedTenant(t);
      const res = await t.http
        .post('/payg/add-customer')
        .set(user.auth)
        .send({ customer_name: 'Otieno', id_number: 'A1', phone_contact: '+254 722 000 111', date_of_birth: 'sometime in the 90s', email: '' })
        .expect(201);
      expect(ZCustomerSchema.parse(res.body)).toMatchObject({
        preferred_language: 'English',
        customer_type: 'individual',
        status: 'active',
        date_of_birth: null,
        email: null,
        gender: null,
      });
    });

    it.each([
      ['15/05/1990', '1990-05-15'],
      ['1990-05-15T23:30:00+03:00', '1990-05-15'],
      ['May 15, 1990', '1990-05-15'],
      ['1990-02-30', null],
      ['', null],
    ])('reads date_of_birth %p as %p', async (input, expected) => {
      const { user } = await seedTenant(t);
      const res = await t.http
        .post('/payg/register-customer')
        .set(user.auth)
        .send({ customer_name: 'D', id_number: `D-${input}`, phone_contact: '0700000001', date_of_birth: input })
        .expect(201);
      expect(res.body.date_of_birth).toBe(expected);
    });

    it('names every missing or invalid field in one 400', async () => {
      const { user } = await seedTenant(t);
      const res = await t.http.post('/payg/register-customer').set(user.auth).send({ customer_name: '   ' }).expect(400);
      const body = ZErrorSchema.parse(res.body);
      expect(body.errors?.map((e) => e.field).sort()).toEqual(['customer_name', 'id_number', 'phone_contact']);
      expect(body.message).toContain('customer_name: is required');

      const bad = await t.http
        .post('/payg/register-customer')
        .set(user.auth)
        .send({
          customer_name: 'x'.repeat(201),
          id_number: '1',
          phone_contact: 'call me',
          email: 'not-an-email',
          gender: 'robot',
          marital_status: 'Complicated',
          education_level: 'Kindergarten',
          preferred_language: 'Klingon',
          customer_type: 'alien',
          status: 'deleted',
        })
        .expect(400);
      const fields = ZErrorSchema.parse(bad.body).errors!.map((e) => e.field).sort();
      expect(fields).toEqual(
        ['customer_name', 'phone_contact', 'email', 'gender', 'marital_status', 'education_level', 'preferred_language', 'customer_type', 'status'].sort(),
      );
      expect(bad.body.message).toContain('gender: must be one of Male, Female, Other');
      expect(await t.db.db.customer.count({ where: { organization_id: user.organization_id } })).toBe(0);
    });

    it('refuses a body that is not a JSON object and a malformed JSON body with 400', async () => {
      const { user } = await seedTenant(t);
      await t.http.post('/payg/register-customer').set(user.auth).send([{ customer_name: 'x' }]).expect(400);
      const res = await t.http.post('/payg/register-customer').set(user.auth).set('Content-Type', 'application/json').send('{"customer_name": ').expect(400);
      expect(res.body.message).toBe('body: malformed JSON');
    });

    it('refuses a second customer with the same ID number in the organization, not in another one', async () => {
      const a = await seedTenant(t);
      const b = await seedTenant(t);
      const body = { customer_name: 'First', id_number: 'DUP-1', phone_contact: '0711111111' };
      await t.http.post('/payg/register-customer').set(a.user.auth).send(body).expect(201);
      const res = await t.http.post('/payg/add-customer').set(a.user.auth).send({ ...body, customer_name: 'Second' }).expect(409);
      expect(res.body).toEqual({ detail: 'A customer with ID number DUP-1 already exists', message: 'A customer with ID number DUP-1 already exists' });
      await t.http.post('/payg/register-customer').set(b.user.auth).send(body).expect(201);
    });

    it('lets only one of two simultaneous registrations of an ID number through', async () => {
      const { user } = await seedTenant(t);
      const body = { customer_name: 'Race', id_number: 'RACE-1', phone_contact: '0711111112' };
      const replies = await Promise.all(
        Array.from({ length: 5 }, () => t.http.post('/payg/register-customer').set(user.auth).send(body)),
      );
      expect(replies.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409]);
      expect(await t.db.db.customer.count({ where: { organization_id: user.organization_id } })).toBe(1);
    });

    it('needs a bearer token, and an organization that is not suspended', async () => {
      await t.http.post('/payg/register-customer').send(full).expect(401);
      await t.http.get('/payg/registered-customers').expect(401);
      const { user } = await seedTenant(t, { status: 'suspended' });
      const res = await t.http.get('/payg/registered-customers').set(user.auth).expect(403);
      expect(res.body.detail.error).toBe('SERVICE_SUSPENDED');
      await t.http.post('/payg/register-customer').set(user.auth).send(full).expect(403);
    });

    it('works for every role of the organization', async () => {
      for (const role of ['owner', 'admin', 'staff'] as const) {
        const { user } = await seedTenant(t, { role });
        await t.http.post('/payg/register-customer').set(user.auth).send({ ...full, id_number: `ROLE-${role}` }).expect(201);
        await t.http.get('/payg/registered-customers').set(user.auth).expect(200);
      }
    });
  });

  describe('GET /registered-customers', () => {
    it('pages newest first with the total and the number of pages', async () => {
      const { user, org } = await seedTenant(t);
      for (let i = 0; i < 12; i++) {
        await t.db.db.customer.create({
          data: {
            organization_id: org.id,
            customer_name: `Customer ${String(i).padStart(2, '0')}`,
            id_number: `P${i}`,
            phone_contact: '0700000000',
            created_at: new Date(Date.now() - (12 - i) * 60_000),
          },
        });
      }
      const first = ZCustomerListReplySchema.parse((await t.http.get('/payg/registered-customers').set(user.auth).expect(200)).body);
      expect(first.data).toHaveLength(10);
      expect(first.data[0].customer_name).toBe('Customer 11');
      expect(first.pagination).toEqual({ total: 12, total_pages: 2, limit: 10, offset: 0 });
      const second = ZCustomerListReplySchema.parse(
        (await t.http.get('/payg/registered-customers?limit=10&offset=10').set(user.auth).expect(200)).body,
      );
      expect(second.data.map((c) => c.customer_name)).toEqual(['Customer 01', 'Customer 00']);
      const past = ZCustomerListReplySchema.parse(
        (await t.http.get('/payg/registered-customers?offset=500').set(user.auth).expect(200)).body,
      );
      expect(past.data).toEqual([]);
      expect(past.pagination.total).toBe(12);
    });

    it('keeps answering when a newer version adds a column while this one runs (its prepared list names its columns)', async () => {
      const { user, org } = await seedTenant(t);
      await seedCustomer(t, org.id, { customer_name: 'Rolling Upgrade' });
      // More than five runs: PostgreSQL has settled on the statement's generic plan on every pooled connection used.
      for (let i = 0; i < 8; i++) await t.http.get('/payg/registered-customers').set(user.auth).expect(200);
      await t.db.platform.$executeRawUnsafe('ALTER TABLE customers ADD COLUMN rolling_upgrade_probe int');
      try {
        for (let i = 0; i < 8; i++) {
          const reply = ZCustomerListReplySchema.parse((await t.http.get('/payg/registered-customers').set(user.auth).expect(200)).body);
          expect(reply.data[0]!.customer_name).toBe('Rolling Upgrade');
        }
      } finally {
        await t.db.platform.$executeRawUnsafe('ALTER TABLE customers DROP COLUMN rolling_upgrade_probe');
      }
    });

    it.each(['limit=0', 'limit=-5', 'limit=101', 'limit=abc', 'offset=-1', 'offset=1.5'])('refuses %s with a 400 naming it', async (qs) => {
      const { user } = await seedTenant(t);
      const res = await t.http.get(`/payg/registered-customers?${qs}`).set(user.auth).expect(400);
      expect(res.body.message).toContain(qs.split('=')[0]);
    });

    it('searches one field, case-insensitively and partially, and takes % and _ literally', async () => {
      const { user, org } = await seedTenant(t);
      await seedCustomer(t, org.id, { customer_name: 'Grace Achieng', county: 'Kisumu', phone_contact: '0722123456' });
      await seedCustomer(t, org.id, { customer_name: 'Peter Kamau', county: 'Kiambu', phone_contact: '0733999888' });
      await seedCustomer(t, org.id, { customer_name: '100% Solar_Shop', county: 'Mombasa', phone_contact: '0711223344' });
      const search = async (qs: string) =>
        ZCustomerListReplySchema.parse((await t.http.get(`/payg/registered-customers?${qs}`).set(user.auth).expect(200)).body);
      expect((await search('search_term=ACHIE')).data.map((c) => c.customer_name)).toEqual(['Grace Achieng']);
      expect((await search('search_term=ki&search_field=county')).pagination.total).toBe(2);
      expect((await search('search_term=999&search_field=phone_contact')).data.map((c) => c.customer_name)).toEqual(['Peter Kamau']);
      expect((await search('search_term=%25')).data.map((c) => c.customer_name)).toEqual(['100% Solar_Shop']);
      expect((await search('search_term=r_s')).data.map((c) => c.customer_name)).toEqual(['100% Solar_Shop']);
      expect((await search('search_term=_')).pagination.total).toBe(1);
      expect((await search('search_term=nobody')).data).toEqual([]);
      expect((await search('search_term=')).pagination.total).toBe(3);
      // The total and the page come from one pass; a page past the matches still says how many there are.
      const second = await search('search_term=ki&search_field=county&limit=1&offset=1');
      expect(second.data).toHaveLength(1);
      expect(second.pagination).toEqual({ total: 2, total_pages: 2, limit: 1, offset: 1 });
      const past = await search('search_term=ki&search_field=county&offset=5');
      expect(past.data).toEqual([]);
      expect(past.pagination.total).toBe(2);
      expect((await search('search_term=nobody&offset=5')).pagination.total).toBe(0);
    });

    it('finds a whole phone number however it was typed, and however it is searched', async () => {
      const { user, org } = await seedTenant(t);
      await seedCustomer(t, org.id, { customer_name: 'Spaced', phone_contact: '0799 123 456' });
      await seedCustomer(t, org.id, { customer_name: 'International', phone_contact: '+254 711 000 666' });
      await seedCustomer(t, org.id, { customer_name: 'Plain', phone_contact: '0718345618' });
      const names = async (term: string) =>
        ZCustomerListReplySchema.parse(
          (await t.http.get('/payg/registered-customers').query({ search_field: 'phone_contact', search_term: term }).set(user.auth).expect(200)).body,
        ).data.map((c) => c.customer_name);
      for (const term of ['0799123456', '+254799123456', '254 799 123 456', '0799 123 456']) expect({ term, found: await names(term) }).toEqual({ term, found: ['Spaced'] });
      for (const term of ['0711000666', '0711 000 666', '254711000666']) expect({ term, found: await names(term) }).toEqual({ term, found: ['International'] });
      for (const term of ['0718 345 618', '254718345618', '+254-718-345-618']) expect({ term, found: await names(term) }).toEqual({ term, found: ['Plain'] });
      // Part of a number is still matched as typed.
      expect(await names('345618')).toEqual(['Plain']);
      expect(await names('0799999999')).toEqual([]);
    });

    it('refuses an unknown search_field with a 400 naming search_field', async () => {
      const { user } = await seedTenant(t);
      const res = await t.http.get('/payg/registered-customers?search_term=x&search_field=password_hash').set(user.auth).expect(400);
      expect(res.body.message).toMatch(/^search_field: must be one of customer_name, phone_contact, id_number, email, county, constituency, occupation/);
    });

    it("never lists or finds another organization's customers", async () => {
      const a = await seedTenant(t);
      const b = await seedTenant(t);
      await seedCustomer(t, a.org.id, { customer_name: 'Secret Customer A' });
      const res = ZCustomerListReplySchema.parse(
        (await t.http.get('/payg/registered-customers?search_term=Secret').set(b.user.auth).expect(200)).body,
      );
      expect(res).toEqual({ data: [], pagination: { total: 0, total_pages: 0, limit: 10, offset: 0 } });
    });
  });

  describe('POST /fetch-customer', () => {
    it('finds by customer_id, id_number, or phone written another way', async () => {
      const { user, org } = await seedTenant(t);
      const c = await seedCustomer(t, org.id, { id_number: 'F-1', phone_contact: '0712000111' });
      const byId = await t.http.post('/payg/fetch-customer').set(user.auth).send({ customer_id: c.id }).expect(200);
      expect(ZCustomerSchema.parse(byId.body).customer_id).toBe(c.id);
      const byIdString = await t.http.post('/payg/fetch-customer').set(user.auth).send({ customer_id: String(c.id) }).expect(200);
      expect(byIdString.body.customer_id).toBe(c.id);
      expect((await t.http.post('/payg/fetch-customer').set(user.auth).send({ id_number: 'F-1' }).expect(200)).body.customer_id).toBe(c.id);
      expect(
        (await t.http.post('/payg/fetch-customer').set(user.auth).send({ phone_contact: '+254 712 000 111' }).expect(200)).body.customer_id,
      ).toBe(c.id);
    });

    it('asks for one of the three, and answers 404 for unknown and foreign customers', async () => {
      const a = await seedTenant(t);
      const b = await seedTenant(t);
      const c = await seedCustomer(t, a.org.id, { id_number: 'F-2', phone_contact: '0712000222' });
      const none = await t.http.post('/payg/fetch-customer').set(a.user.auth).send({}).expect(400);
      expect(none.body.message).toContain('customer_id, id_number or phone_contact');
      await t.http.post('/payg/fetch-customer').set(a.user.auth).send({ customer_id: 0 }).expect(400);
      await t.http.post('/payg/fetch-customer').set(a.user.auth).send({ customer_id: 999999 }).expect(404);
      for (const body of [{ customer_id: c.id }, { id_number: 'F-2' }, { phone_contact: '0712000222' }]) {
        const res = await t.http.post('/payg/fetch-customer').set(b.user.auth).send(body).expect(404);
        expect(res.body.detail).toBe('Customer not found');
      }
    });
  });

  describe('GET, PUT and DELETE /customers/{id}', () => {
    it('reads one customer; 404 for unknown or foreign ids; 400 for a non-numeric id', async () => {
      const a = await seedTenant(t);
      const b = await seedTenant(t);
      const c = await seedCustomer(t, a.org.id);
      expect(ZCustomerSchema.parse((await t.http.get(`/payg/customers/${c.id}`).set(a.user.auth).expect(200)).body).customer_id).toBe(c.id);
      await t.http.get(`/payg/customers/${c.id}`).set(b.user.auth).expect(404);
      await t.http.get('/payg/customers/99999999').set(a.user.auth).expect(404);
      const bad = await t.http.get('/payg/customers/abc').set(a.user.auth).expect(400);
      expect(bad.body.message).toContain('id: must be a positive whole number');
      // The largest key is an id like any other; one past it is not.
      await t.http.get('/payg/customers/2147483647').set(a.user.auth).expect(404);
      await t.http.get('/payg/customers/2147483648').set(a.user.auth).expect(400);
    });

    it('changes only the fields sent, clears optional fields sent empty, and validates like registration', async () => {
      const { user, org } = await seedTenant(t);
      const c = await seedCustomer(t, org.id, { email: 'old@example.com', county: 'Nairobi' });
      const res = await t.http
        .put(`/payg/customers/${c.id}`)
        .set(user.auth)
        .send({ customer_name: ' New Name ', phone_contact: '0799 888 777', email: '', country: 'Uganda', status: 'suspended', organization_id: 'x' })
        .expect(200);
      const updated = ZCustomerSchema.parse(res.body);
      expect(updated).toMatchObject({ customer_name: 'New Name', email: null, country: 'Uganda', status: 'suspended', county: 'Nairobi' });
      const row = await t.db.db.customer.findUnique({ where: { organization_id_id: { organization_id: org.id, id: c.id } } });
      expect(row?.phone_normalized).toBe('254799888777');
      const bad = await t.http.put(`/payg/customers/${c.id}`).set(user.auth).send({ status: 'gone', customer_name: '' }).expect(400);
      expect(bad.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['customer_name', 'status']);
      // Registration reads an unparsable date of birth as none; an update refuses it and keeps the stored one.
      await t.http.put(`/payg/customers/${c.id}`).set(user.auth).send({ date_of_birth: '1985-07-04' }).expect(200);
      const badDate = await t.http.put(`/payg/customers/${c.id}`).set(user.auth).send({ date_of_birth: 'garbage' }).expect(400);
      expect(badDate.body.message).toBe('date_of_birth: must be a date (YYYY-MM-DD)');
      expect(ZCustomerSchema.parse((await t.http.get(`/payg/customers/${c.id}`).set(user.auth).expect(200)).body).date_of_birth).toBe('1985-07-04');
      // A status change is in the audit log, committed with the change.
      const audit = await t.db.platform.auditLog.findFirst({ where: { organization_id: org.id, action: 'customer.status_changed' } });
      expect(audit?.description).toContain('active → suspended');
    });

    it('refuses to give a customer the ID number of another', async () => {
      const { user, org } = await seedTenant(t);
      await seedCustomer(t, org.id, { id_number: 'TAKEN' });
      const c = await seedCustomer(t, org.id);
      const res = await t.http.put(`/payg/customers/${c.id}`).set(user.auth).send({ id_number: 'TAKEN' }).expect(409);
      expect(res.body.detail).toBe('A customer with ID number TAKEN already exists');
    });

    it("cannot change or delete another organization's customer", async () => {
      const a = await seedTenant(t);
      const b = await seedTenant(t);
      const c = await seedCustomer(t, a.org.id, { customer_name: 'Untouched' });
      await t.http.put(`/payg/customers/${c.id}`).set(b.user.auth).send({ customer_name: 'Hacked' }).expect(404);
      await t.http.delete(`/payg/customers/${c.id}`).set(b.user.auth).expect(404);
      const row = await t.db.db.customer.findUnique({ where: { organization_id_id: { organization_id: a.org.id, id: c.id } } });
      expect(row?.customer_name).toBe('Untouched');
    });

    it('deletes a customer without devices or payments, with their template history', async () => {
      const { user, org } = await seedTenant(t);
      const { customer, item } = await seedCustomerWithDevice(t, org.id);
      await t.http.post('/payg/items/unassign').set(user.auth).send({ item_serial_number: item.serial_number }).expect(200);
      const res = await t.http.delete(`/payg/customers/${customer.id}`).set(user.auth).expect(200);
      expect(res.body.message).toContain('deleted');
      await t.http.get(`/payg/customers/${customer.id}`).set(user.auth).expect(404);
      expect(await t.db.db.templateAssignment.count({ where: { organization_id: org.id, customer_id: customer.id } })).toBe(0);
      expect(await t.db.platform.auditLog.count({ where: { organization_id: org.id, action: 'customer.deleted' } })).toBe(1);
      await t.http.delete(`/payg/customers/${customer.id}`).set(user.auth).expect(404);
    });

    it('refuses to delete a customer who has devices or payments, saying how many', async () => {
      const { user, org } = await seedTenant(t);
      const { customer, item } = await seedCustomerWithDevice(t, org.id);
      await seedItem(t, org.id, { customer_id: customer.id });
      for (let i = 0; i < 5; i++) await recordPayment(t, org.id, { customer_id: customer.id, item_id: item.id, amount: '100.00' });
      const res = await t.http.delete(`/payg/customers/${customer.id}`).set(user.auth).expect(409);
      expect(res.body.detail).toBe('Customer has 2 device(s) and 5 payment(s); unassign or keep the customer');
      await t.http.get(`/payg/customers/${customer.id}`).set(user.auth).expect(200);

      const payer = await seedCustomer(t, org.id);
      await recordPayment(t, org.id, { customer_id: payer.id, amount: '10.00' });
      const res2 = await t.http.delete(`/payg/customers/${payer.id}`).set(user.auth).expect(409);
      expect(res2.body.detail).toBe('Customer has 0 device(s) and 1 payment(s); unassign or keep the customer');
    });
  });

  describe('a customer’s devices, payments and status', () => {
    it('lists the devices and the payments (newest first) of the customer only', async () => {
      const a = await seedTenant(t);
      const b = await seedTenant(t);
      const { customer, item } = await seedCustomerWithDevice(t, a.org.id);
      const other = await seedCustomer(t, a.org.id);
      await recordPayment(t, a.org.id, { customer_id: customer.id, item_id: item.id, amount: '100.00', paid_at: new Date(Date.now() - 2 * DAY) });
      await recordPayment(t, a.org.id, { customer_id: customer.id, item_id: item.id, amount: '250.50', paid_at: new Date(Date.now() - DAY), days_bought: 5 });
      await recordPayment(t, a.org.id, { customer_id: other.id, amount: '999.00' });

      const items = ZCustomerItemsReplySchema.parse((await t.http.get(`/payg/customers/${customer.id}/items`).set(a.user.auth).expect(200)).body);
      expect(items.data.map((i) => i.serial_number)).toEqual([item.serial_number]);
      expect(JSON.stringify(items)).not.toMatch(/secret|starting_code|_enc/);

      for (const path of [`/payg/customers/${customer.id}/payments`, `/payg/payments/customer/${customer.id}/history`]) {
        const payments = ZCustomerPaymentsReplySchema.parse((await t.http.get(path).set(a.user.auth).expect(200)).body);
        expect(payments.data.map((p) => p.amount)).toEqual(['250.50', '100.00']);
        expect(payments.data[0]).toMatchObject({ item_serial_number: item.serial_number, days_bought: 5, status: 'completed' });
        expect(payments.pagination.total).toBe(2);
        await t.http.get(path).set(b.user.auth).expect(404);
      }
      await t.http.get(`/payg/customers/${customer.id}/items`).set(b.user.auth).expect(404);
      await t.http.get(`/payg/customers/${customer.id}/status`).set(b.user.auth).expect(404);
    });

    it('gives days of credit left per device, the total paid and the balance left to pay off', async () => {
      const { user, org } = await seedTenant(t);
      const { customer, item } = await seedCustomerWithDevice(t, org.id, {
        template: { free_code_price: '20000.00', daily_price: '50.00' },
        item: { price: '30000.00' },
      });
      const second = await seedItem(t, org.id, { customer_id: customer.id, price: '5000.00' });
      await t.db.db.item.update({
        where: { organization_id_id: { organization_id: org.id, id: item.id } },
        data: { total_paid: '2200.00', credit_until: new Date(Date.now() + 2.5 * DAY + 60_000) },
      });
      await t.db.db.item.update({
        where: { organization_id_id: { organization_id: org.id, id: second.id } },
        data: { total_paid: '1000.00', credit_until: new Date(Date.now() - DAY) },
      });
      await recordPayment(t, org.id, { customer_id: customer.id, item_id: item.id, amount: '2200.00' });
      await recordPayment(t, org.id, { customer_id: customer.id, item_id: second.id, amount: '1000.00', status: 'success' });
      await recordPayment(t, org.id, { customer_id: customer.id, amount: '50.00', status: 'pending' });

      const s = ZCustomerStatusReplySchema.parse((await t.http.get(`/payg/customers/${customer.id}/status`).set(user.auth).expect(200)).body);
      expect(s).toMatchObject({ customer_id: customer.id, status: 'active', total_paid: '3200.00', payments_count: 2 });
      const bySerial = Object.fromEntries(s.devices.map((d) => [d.serial_number, d]));
      // The template's free-code price applies to every device of the customer.
      expect(bySerial[item.serial_number]).toMatchObject({ days_left: 2.5, paid_off: false, payoff_price: '20000.00', remaining: '17800.00' });
      expect(bySerial[second.serial_number]).toMatchObject({ days_left: 0, remaining: '19000.00' });
      expect(s.balance).toBe('36800.00');
      expect(s.template?.daily_price).toBe('50.00');

      await t.db.db.item.update({
        where: { organization_id_id: { organization_id: org.id, id: second.id } },
        data: { paid_off_at: new Date(), credit_until: null },
      });
      const after = ZCustomerStatusReplySchema.parse((await t.http.get(`/payg/customers/${customer.id}/status`).set(user.auth).expect(200)).body);
      expect(after.devices.find((d) => d.serial_number === second.serial_number)).toMatchObject({ paid_off: true, remaining: '0.00', days_left: 0 });
      expect(after.balance).toBe('17800.00');
    });

    it('uses the device price without a template, and zero for a customer without devices', async () => {
      const { user, org } = await seedTenant(t);
      const c = await seedCustomer(t, org.id);
      const empty = ZCustomerStatusReplySchema.parse((await t.http.get(`/payg/customers/${c.id}/status`).set(user.auth).expect(200)).body);
      expect(empty).toMatchObject({ devices: [], total_paid: '0.00', balance: '0.00', template: null });
      await seedItem(t, org.id, { customer_id: c.id, price: '25000.00' });
      const s = ZCustomerStatusReplySchema.parse((await t.http.get(`/payg/customers/${c.id}/status`).set(user.auth).expect(200)).body);
      expect(s.devices[0]).toMatchObject({ payoff_price: '25000.00', remaining: '25000.00' });
      expect(s.balance).toBe('25000.00');
    });
  });

  it('documents every customer, device, template and onboarding endpoint in the OpenAPI document', async () => {
    const doc = await t.http.get('/payg/docs-json').expect(200);
    const expected: Record<string, string[]> = {
      '/payg/registered-customers': ['get'],
      '/payg/register-customer': ['post'],
      '/payg/add-customer': ['post'],
      '/payg/fetch-customer': ['post'],
      '/payg/customers/insights': ['get'],
      '/payg/customers/{id}': ['get', 'put', 'delete'],
      '/payg/customers/{id}/items': ['get'],
      '/payg/customers/{id}/payments': ['get'],
      '/payg/customers/{id}/status': ['get'],
      '/payg/upload-csv': ['post'],
      '/payg/export-customers-csv': ['get'],
      '/payg/payments/customer/{id}/history': ['get'],
      '/payg/items': ['get'],
      '/payg/items/add': ['post'],
      '/payg/items/add/bulk': ['post'],
      '/payg/items/fetch': ['post'],
      '/payg/items/search': ['post'],
      '/payg/items/assign': ['post'],
      '/payg/items/unassign': ['post'],
      '/payg/items/{serial_number}': ['put', 'delete'],
      '/payg/products/summary': ['get'],
      '/payg/products': ['get'],
      '/payg/payments/templates': ['get'],
      '/payg/payments/templates/create': ['post'],
      '/payg/payments/templates/summary': ['get'],
      '/payg/payments/templates/performance': ['get'],
      '/payg/payments/templates/assignments': ['get'],
      '/payg/payments/templates/assign': ['post'],
      '/payg/payments/templates/assignments/{id}/end': ['post'],
      '/payg/payments/templates/{id}': ['get', 'put', 'delete'],
      '/payg/payments/templates/{id}/performance': ['get'],
      '/payg/payments/templates/{id}/usage': ['get'],
      '/payg/onboarding': ['post'],
    };
    for (const [path, methods] of Object.entries(expected)) {
      for (const m of methods) expect({ path, m, documented: Boolean(doc.body.paths[path]?.[m]) }).toEqual({ path, m, documented: true });
    }
    const register = doc.body.paths['/payg/register-customer'].post;
    expect(Object.keys(register.requestBody.content['application/json'].schema.properties)).toEqual(
      expect.arrayContaining(['customer_name', 'id_number', 'phone_contact', 'gender', 'date_of_birth']),
    );
    expect(doc.body.paths['/payg/upload-csv'].post.requestBody.content['multipart/form-data'].schema.required).toEqual(['csv_file']);
  });

  describe('GET /customers/insights', () => {
    it('counts by status, new customers, customers with devices and the top counties', async () => {
      const a = await seedTenant(t);
      const b = await seedTenant(t);
      const old = new Date(Date.now() - 20 * DAY);
      const older = new Date(Date.now() - 60 * DAY);
      const make = (name: string, county: string | null, status: string, created_at?: Date) =>
        t.db.db.customer.create({
          data: { organization_id: a.org.id, customer_name: name, id_number: name, phone_contact: '0700000000', county, status, created_at },
        });
      const c1 = await make('c1', 'Nairobi', 'active');
      await make('c2', 'Nairobi', 'active', old);
      await make('c3', 'Kisumu', 'inactive', older);
      await make('c4', null, 'suspended', older);
      await seedItem(t, a.org.id, { customer_id: c1.id });
      await seedItem(t, a.org.id, { customer_id: c1.id });
      await seedCustomer(t, b.org.id, { county: 'Mombasa' });

      const i = ZCustomerInsightsSchema.parse((await t.http.get('/payg/customers/insights').set(a.user.auth).expect(200)).body);
      expect(i).toEqual({
        total: 4,
        by_status: { active: 2, inactive: 1, suspended: 1 },
        new_last_7_days: 1,
        new_last_30_days: 2,
        with_devices: 1,
        without_devices: 3,
        top_counties: [
          { county: 'Nairobi', count: 2 },
          { county: 'Kisumu', count: 1 },
        ],
      });
    });

    it('is all zeros for an organization without customers', async () => {
      const { user } = await seedTenant(t);
      const i = ZCustomerInsightsSchema.parse((await t.http.get('/payg/customers/insights').set(user.auth).expect(200)).body);
      expect(i.total).toBe(0);
      expect(i.top_counties).toEqual([]);
    });
  });
});
