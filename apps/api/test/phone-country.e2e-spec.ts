import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { PHONE_COUNTRIES, ZCustomerListReplySchema, ZPhoneCountrySchema, ZPhoneCountryUpdateSchema, ZReceiveReplySchema } from '@kidogo/contracts';
import { isKnownCountryCode } from '@kidogo/mobile-money';
import { PHONE_COUNTRY_LOCK } from '../src/customers/phone-country.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { csvText } from './support/catalog.js';
import { seedApiKey, seedCustomerWithDevice, seedTenant, seedUser } from './support/factories.js';

// An organization in Uganda: its customers' numbers are typed 0751 234 567, and
// Airtel Money writes the payer as 751234567 in UGX. Read as Kenyan numbers
// (the default), the payment finds nobody; once the organization's phone
// country is Uganda, it finds the customer, and the code goes to their phone
// (README "Phone numbers").

const KENYA = { phone_country_code: '254', country: 'Kenya', example: { written: '0712 345 678', read_as: '+254712345678' }, unreadable_numbers: 0 };
const UGANDA = { phone_country_code: '256', country: 'Uganda', example: { written: '0772 123 456', read_as: '+256772123456' }, unreadable_numbers: 0 };
const airtelUg = (tid: string) => `RECEIVED. TID ${tid}. UGX 3,000 from 751234567, NAKATO SARAH. Bal UGX 412,500.`;

describe('the organization phone country', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const customer = (orgId: string, id: number) => t.db.db.customer.findUniqueOrThrow({ where: { organization_id_id: { organization_id: orgId, id } } });
  const country = async (orgId: string) => (await t.db.db.organization.findUniqueOrThrow({ where: { id: orgId } })).phone_country_code;

  it('is Kenya by default, readable by any user', async () => {
    const { org } = await seedTenant(t);
    const staff = await seedUser(t, { organization_id: org.id, role: 'staff' });
    const res = await t.http.get('/payg/settings/phone-country').set(staff.auth).expect(200);
    expect(ZPhoneCountrySchema.parse(res.body)).toEqual(KENYA);
  });

  it('reads every customer again when it changes: a Ugandan payment then finds its customer', async () => {
    const { org, user } = await seedTenant(t);
    const key = await seedApiKey(t, user);
    // All through the API, as staff set up a Ugandan account: a plan in UGX, the customer typed 0751 234 567, her device.
    const plan = await t.http.post('/payg/payments/templates/create').set(user.auth).send({ template_name: 'Kampala Solar', daily_price: 1000, currency: 'ugx' }).expect(201);
    const registered = await t.http
      .post('/payg/register-customer')
      .set(user.auth)
      .send({ customer_name: 'Nakato Sarah', id_number: 'UG-0', phone_contact: '0751 234 567' })
      .expect(201);
    const nakato = { customer: { id: registered.body.customer_id as number }, item: { serial_number: 'UG-SHS-1' } };
    await t.http.post('/payg/items/add').set(user.auth).send({ serial_number: 'UG-SHS-1', product_name: 'Solar Kit', price: 300000 }).expect(201);
    await t.http.post('/payg/items/assign').set(user.auth).send({ customer_id: nakato.customer.id, item_serial_number: 'UG-SHS-1' }).expect(200);
    await t.http.post('/payg/payments/templates/assign').set(user.auth).send({ customer_id: nakato.customer.id, template_id: plan.body.template_id }).expect(200);
    // Typed with its country code: the same number whatever the organization's country.
    const kenyan = await seedCustomerWithDevice(t, org.id);
    await t.http.put(`/payg/customers/${kenyan.customer.id}`).set(user.auth).send({ phone_contact: '+254 712 000 999' }).expect(200);
    expect((await customer(org.id, nakato.customer.id)).phone_normalized).toBe('254751234567');

    // Read as a Kenyan number, the payer is nobody's: held.
    const receive = (message: string) =>
      t.http.post('/payg/external/receive-phoneteletalk').set(key).send({ from: 'AirtelMoney', message }).expect(200);
    const held = ZReceiveReplySchema.parse((await receive(airtelUg('151204678801'))).body);
    expect(held.status).toBe('unmatched');

    const res = await t.http.put('/payg/settings/phone-country').set(user.auth).send({ phone_country_code: '256' }).expect(200);
    expect(ZPhoneCountryUpdateSchema.parse(res.body)).toEqual({ ...UGANDA, customers_updated: 1 });
    expect((await customer(org.id, nakato.customer.id)).phone_normalized).toBe('256751234567');
    expect((await customer(org.id, kenyan.customer.id)).phone_normalized).toBe('254712000999');
    const audit = await t.db.platform.auditLog.findFirstOrThrow({ where: { organization_id: org.id, action: 'organization.phone_country' } });
    expect(audit.metadata).toEqual({ from: '254', to: '256', customers_updated: 1, unreadable_numbers: 0 });
    expect(audit.description).toBe(
      `Phone numbers without a country code are read as Uganda's (+256), no longer Kenya's (+254), set by ${user.username}: 1 customer's number read again`,
    );

    // The next payment from the phone finds Nakato's device, and the code goes to her phone.
    const paid = ZReceiveReplySchema.parse((await receive(airtelUg('151204678802'))).body);
    expect(paid).toMatchObject({ status: 'processed', serial_number: nakato.item.serial_number, days: 3 });
    const reply = await t.db.db.message.findUniqueOrThrow({ where: { organization_id_id: { organization_id: org.id, id: paid.message_id! } } });
    expect(reply.recipient_number).toBe('256751234567');

    // Searching by the number as Ugandans write it finds her.
    const found = await t.http
      .get('/payg/registered-customers')
      .query({ search_field: 'phone_contact', search_term: '0751 234567' })
      .set(user.auth)
      .expect(200);
    expect(ZCustomerListReplySchema.parse(found.body).data.map((c) => c.customer_id)).toEqual([nakato.customer.id]);
    const fetched = await t.http.post('/payg/fetch-customer').set(user.auth).send({ phone_contact: '+256751234567' }).expect(200);
    expect(fetched.body.customer_id).toBe(nakato.customer.id);

    // Customers added from now on are read as Ugandan: registered, edited and imported.
    const added = await t.http
      .post('/payg/register-customer')
      .set(user.auth)
      .send({ customer_name: 'Okello John', id_number: 'UG-1', phone_contact: '0772 000 111' })
      .expect(201);
    expect((await customer(org.id, added.body.customer_id)).phone_normalized).toBe('256772000111');
    const file = csvText(['Customer Name,ID Number,Phone Contact', 'Apio Grace,UG-2,0701 222 333', 'Mwangi Peter,KE-9,+254 722 000 111']);
    await t.http.post('/payg/upload-csv').set(user.auth).attach('csv_file', Buffer.from(file), 'customers.csv').expect(200);
    const imported = await t.db.db.customer.findMany({ where: { organization_id: org.id, id_number: { in: ['UG-2', 'KE-9'] } }, orderBy: { id_number: 'asc' } });
    expect(imported.map((c) => [c.id_number, c.phone_normalized])).toEqual([
      ['KE-9', '254722000111'],
      ['UG-2', '256701222333'],
    ]);

    // Nigerian numbers have ten digits after the 0: the three typed 07…/0751… read as no phone there, and it says so.
    const nigeria = ZPhoneCountryUpdateSchema.parse(
      (await t.http.put('/payg/settings/phone-country').set(user.auth).send({ phone_country_code: '234' }).expect(200)).body,
    );
    expect(nigeria).toMatchObject({ country: 'Nigeria', customers_updated: 3, unreadable_numbers: 3 });
    expect((await customer(org.id, nakato.customer.id)).phone_normalized).toBeNull();
    expect(ZPhoneCountrySchema.parse((await t.http.get('/payg/settings/phone-country').set(user.auth).expect(200)).body).unreadable_numbers).toBe(3);
    const told = await t.db.platform.auditLog.findFirstOrThrow({ where: { organization_id: org.id, action: 'organization.phone_country', metadata: { path: ['to'], equals: '234' } } });
    expect(told.description).toMatch(/: 3 customers' numbers read again, 3 not readable as a phone$/);

    // Back to Kenya: the numbers typed without a code read as Kenyan again.
    const back = await t.http.put('/payg/settings/phone-country').set(user.auth).send({ phone_country_code: '254' }).expect(200);
    expect(ZPhoneCountryUpdateSchema.parse(back.body)).toEqual({ ...KENYA, customers_updated: 3 });
    expect((await customer(org.id, nakato.customer.id)).phone_normalized).toBe('254751234567');
  });

  it('changes nothing when set to the country it has, and refuses what is not a country offered', async () => {
    const { org, user } = await seedTenant(t);
    const d = await seedCustomerWithDevice(t, org.id, { customer: { phone_contact: '0712 345 001' } });
    const same = await t.http.put('/payg/settings/phone-country').set(user.auth).send({ phone_country_code: '254' }).expect(200);
    expect(same.body).toEqual({ ...KENYA, customers_updated: 0 });
    for (const body of [{ phone_country_code: '999' }, { phone_country_code: 256 }, { phone_country_code: '+256' }, {}, { phone_country_code: '256', extra: 1 }]) {
      const res = await t.http.put('/payg/settings/phone-country').set(user.auth).send(body).expect(400);
      expect(res.body.message).toMatch('extra' in body ? /^extra: is not an accepted field/ : /^phone_country_code: (must be one of .*254, 255, 256|is required)/);
    }
    const staff = await seedUser(t, { organization_id: org.id, role: 'staff' });
    await t.http.put('/payg/settings/phone-country').set(staff.auth).send({ phone_country_code: '256' }).expect(403);
    expect(await country(org.id)).toBe('254');
    expect((await customer(org.id, d.customer.id)).phone_normalized).toBe('254712345001');
    expect(await t.db.platform.auditLog.count({ where: { organization_id: org.id, action: 'organization.phone_country' } })).toBe(0);
  });

  it('refuses a number that reads as no phone of the country, nor as one with a country code, and changes nothing', async () => {
    const { org, user } = await seedTenant(t);
    const kenya = "phone_contact: is not a phone number we can read: write it as in Kenya (0712 345 678) or with its country code (+254…)";
    // Nine digits after the 0: a digit missing, so no payment or text from the phone would ever find the customer.
    const short = await t.http
      .post('/payg/register-customer')
      .set(user.auth)
      .send({ customer_name: 'Typo', id_number: 'TYPO-1', phone_contact: '0712 345 67' })
      .expect(400);
    expect(short.body).toMatchObject({ message: kenya, errors: [{ field: 'phone_contact' }] });
    expect(await t.db.db.customer.count({ where: { organization_id: org.id } })).toBe(0);
    // Written with another country's code it is that country's number, and taken.
    await t.http.post('/payg/register-customer').set(user.auth).send({ customer_name: 'Abroad', id_number: 'AB-1', phone_contact: '+256 772 123 456' }).expect(201);

    await t.http.put('/payg/settings/phone-country').set(user.auth).send({ phone_country_code: '256' }).expect(200);
    const d = await seedCustomerWithDevice(t, org.id, { customer: { phone_contact: '0772 000 333' } });
    const edit = await t.http.put(`/payg/customers/${d.customer.id}`).set(user.auth).send({ phone_contact: '0772 000 33', customer_name: 'Renamed' }).expect(400);
    expect(edit.body.message).toBe("phone_contact: is not a phone number we can read: write it as in Uganda (0772 123 456) or with its country code (+256…)");
    expect(await customer(org.id, d.customer.id)).toMatchObject({ phone_contact: '0772 000 333', customer_name: d.customer.customer_name });

    const file = csvText(['Customer Name,ID Number,Phone Contact', 'Apio Grace,UG-7,0701 222 333', 'Typo Joan,UG-8,0701 222 33']);
    const report = (await t.http.post('/payg/upload-csv').set(user.auth).attach('csv_file', Buffer.from(file), 'customers.csv').expect(200)).body;
    expect(report).toMatchObject({ rows: 2, imported: 1 });
    expect(report.errors).toEqual([expect.objectContaining({ row: 2, field: 'phone_contact', message: expect.stringMatching(/^is not a phone number we can read: write it as in Uganda/) })]);
    expect(await t.db.db.customer.count({ where: { organization_id: org.id, id_number: 'UG-8' } })).toBe(0);
  });

  it('changes only the caller organization', async () => {
    const a = await seedTenant(t);
    const b = await seedTenant(t);
    const inA = await seedCustomerWithDevice(t, a.org.id, { customer: { phone_contact: '0751 000 222' } });
    await t.http.put('/payg/settings/phone-country').set(b.user.auth).send({ phone_country_code: '256' }).expect(200);
    expect([await country(a.org.id), await country(b.org.id)]).toEqual(['254', '256']);
    expect((await customer(a.org.id, inA.customer.id)).phone_normalized).toBe('254751000222');
  });

  it('makes a customer written during a change wait for it, and read with the new country', async () => {
    const { org, user } = await seedTenant(t);
    // A change under way: the lock held, the new country written, not committed yet.
    const change = await t.db.pool.connect();
    try {
      await change.query('BEGIN');
      await change.query('SELECT pg_advisory_xact_lock($1::int, hashtext($2))', [PHONE_COUNTRY_LOCK, org.id]);
      await change.query(`UPDATE organizations SET phone_country_code = '255' WHERE organization_id = $1`, [org.id]);
      let done = false;
      const register = t.http
        .post('/payg/register-customer')
        .set(user.auth)
        .send({ customer_name: 'Neema Joseph', id_number: 'TZ-1', phone_contact: '0754 123 456' })
        .then((res) => {
          done = true;
          return res;
        });
      await new Promise((r) => setTimeout(r, 400));
      expect(done).toBe(false);
      await change.query('COMMIT');
      const res = await register;
      expect(res.status).toBe(201);
      expect((await customer(org.id, res.body.customer_id)).phone_normalized).toBe('255754123456');
    } finally {
      change.release();
    }
  });

  it('offers only countries whose numbers can be read, each allowed by the database', async () => {
    const { org } = await seedTenant(t);
    for (const c of PHONE_COUNTRIES) {
      expect(isKnownCountryCode(c.code)).toBe(true);
      await t.db.platform.organization.update({ where: { id: org.id }, data: { phone_country_code: c.code } });
    }
    await expect(t.db.platform.organization.update({ where: { id: org.id }, data: { phone_country_code: '999' } })).rejects.toThrow();
  });
});
