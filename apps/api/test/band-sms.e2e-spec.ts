import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { BAND_SMS_PLACEHOLDERS, MAX_BAND_SMS, ZBandSmsReplySchema, ZMessageListReplySchema } from '@kidogo/contracts';
import { createTestApp, type TestApp } from './support/test-app.js';
import { seedCustomerWithDevice, seedTenant, seedUser, type SeededUser } from './support/factories.js';

// POST /payg/collections/sms: one text to every customer of a band of days
// without credit, filled in for each device (README "Texting a customer").

const DAY = 86_400_000;
const ago = (days: number) => new Date(Date.now() - days * DAY - 3_600_000);

describe('texting a band of Collections', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const withSms = (owner: SeededUser) =>
    t.http.put('/payg/settings/sms-provider').set(owner.auth).send({ provider: 'sms_webhook', config: { url: 'http://127.0.0.1:9/sms' } }).expect(200);
  const textBand = (user: SeededUser, body: object) => t.http.post('/payg/collections/sms').set(user.auth).send(body);

  /** Devices out of credit 3, 12 and 20 days (one customer without a phone) and one with credit left, on a 40-a-day plan. */
  async function portfolio() {
    const { org, user } = await seedTenant(t);
    const plan = { daily_price: '40.00', free_code_price: '10000.00', currency: 'KES' };
    const mk = async (name: string, phone: string | null, until: Date) => {
      const d = await seedCustomerWithDevice(t, org.id, { template: plan, item: { price: '12000.00' } });
      await t.db.db.customer.update({
        where: { organization_id_id: { organization_id: org.id, id: d.customer.id } },
        data: { customer_name: name, phone_contact: phone ?? '', phone_normalized: phone ? `254${phone.slice(1)}` : null },
      });
      await t.db.db.item.update({ where: { organization_id_id: { organization_id: org.id, id: d.item.id } }, data: { credit_until: until, total_paid: '1600.00' } });
      return d;
    };
    const recent = await mk('Rehema Achieng', '0711000001', ago(3));
    const twelve = await mk('Tumaini Wekesa', '0711000002', ago(12));
    const twenty = await mk('Faraji Noor', null, ago(20));
    const current = await mk('Chebet Kip', '0711000004', new Date(Date.now() + 5 * DAY));
    return { org, user, recent, twelve, twenty, current };
  }

  const TEXT = 'Habari {name}, {serial} has been off {days} days. {remaining} left; pay {daily_price} a day to account {serial}.';

  it('previews, then queues one filled-in text per device of the band, skipping customers without a phone', async () => {
    const p = await portfolio();
    await withSms(p.user);
    const preview = ZBandSmsReplySchema.parse((await textBand(p.user, { bucket: '8-30', text: TEXT, dry_run: true }).expect(200)).body);
    expect(preview).toEqual({
      message: 'Would send 1 SMS to the customers 8–30 days without credit',
      bucket: '8-30',
      agent: null,
      dry_run: true,
      recipients: 1,
      skipped_no_phone: 1,
      skipped_opted_out: 0,
      skipped_open_ticket: 0,
      parts: 1,
      queued: 0,
      sample: [
        {
          serial_number: p.twelve.item.serial_number,
          customer_name: 'Tumaini Wekesa',
          recipient_number: '254711000002',
          text: `Habari Tumaini, ${p.twelve.item.serial_number} has been off 12 days. KES 8,400.00 left; pay KES 40.00 a day to account ${p.twelve.item.serial_number}.`,
          parts: 1,
        },
      ],
    });
    // A preview queues nothing.
    expect(await t.db.db.message.count({ where: { organization_id: p.org.id, sent_by: { not: null } } })).toBe(0);

    const sent = ZBandSmsReplySchema.parse((await textBand(p.user, { bucket: 'all', text: TEXT }).expect(200)).body);
    expect(sent).toMatchObject({ message: '2 SMS queued to all the customers without credit', recipients: 2, skipped_no_phone: 1, queued: 2, dry_run: false });
    const queued = await t.db.db.message.findMany({ where: { organization_id: p.org.id, sent_by: p.user.username }, orderBy: { id: 'asc' } });
    expect(queued.map((m) => [m.item_id, m.recipient_number, m.delivery_status, m.forwarded_message])).toEqual([
      [
        p.recent.item.id,
        '254711000001',
        'queued',
        `Habari Rehema, ${p.recent.item.serial_number} has been off 3 days. KES 8,400.00 left; pay KES 40.00 a day to account ${p.recent.item.serial_number}.`,
      ],
      [
        p.twelve.item.id,
        '254711000002',
        'queued',
        `Habari Tumaini, ${p.twelve.item.serial_number} has been off 12 days. KES 8,400.00 left; pay KES 40.00 a day to account ${p.twelve.item.serial_number}.`,
      ],
    ]);
    // In the device's Message History, as from the user; one audit entry for the whole band.
    const history = ZMessageListReplySchema.parse((await t.http.get('/payg/fetch_messages').query({ search: p.recent.item.serial_number }).set(p.user.auth).expect(200)).body);
    expect(history.data[0]).toMatchObject({ sent_by: p.user.username });
    const audit = await t.db.db.auditLog.findMany({ where: { organization_id: p.org.id, action: 'collections.sms_sent' } });
    expect(audit).toHaveLength(1);
    expect(audit[0]!.metadata).toMatchObject({ bucket: 'all', text: TEXT, queued: 2, parts: 2, skipped_no_phone: 1 });
    // A device being repaired (a service ticket not resolved yet): its customer is not asked to pay until it works.
    await t.http.post('/payg/tickets').set(p.user.auth).send({ serial_number: p.recent.item.serial_number, category: 'device_fault', description: 'Off' }).expect(201);
    const repairing = ZBandSmsReplySchema.parse((await textBand(p.user, { bucket: 'all', text: TEXT, dry_run: true }).expect(200)).body);
    expect(repairing).toMatchObject({ recipients: 1, skipped_open_ticket: 1, skipped_no_phone: 1 });
    expect(repairing.sample.map((x) => x.serial_number)).toEqual([p.twelve.item.serial_number]);
    // A band with nobody in it sends nothing.
    expect(ZBandSmsReplySchema.parse((await textBand(p.user, { bucket: 'over-90', text: 'Hi {name}' }).expect(200)).body)).toMatchObject({
      recipients: 0,
      queued: 0,
      message: 'Nothing to send: no customer of this band has a phone number and takes texts',
    });
  });

  it('refuses unknown placeholders, texts too long once filled in and a send without a provider, changing nothing', async () => {
    const p = await portfolio();
    const bad = async (body: object, message: string, status = 400) => expect((await textBand(p.user, body).expect(status)).body.message).toBe(message);
    const all = Object.keys(BAND_SMS_PLACEHOLDERS).map((k) => `{${k}}`).join(', ');
    // No provider: a real send is refused, a preview is not.
    await bad({ bucket: 'all', text: 'Hi {name}' }, 'No SMS provider is set up to send it: an owner or admin sets one in Settings → SMS Provider', 409);
    await textBand(p.user, { bucket: 'all', text: 'Hi {name}', dry_run: true }).expect(200);
    await withSms(p.user);
    await bad({ bucket: 'all', text: 'Hi {nmae} {balance}' }, `text: {nmae}, {balance} are not placeholders: use ${all}`);
    await bad({ bucket: 'all', text: '   ' }, 'text: is required');
    await bad({ bucket: 'all' }, 'text: is required');
    await bad({ bucket: 'soon', text: 'Hi' }, 'bucket: must be one of all, 0-7, 8-30, 31-90, over-90');
    await bad({ bucket: 'all', text: 'Hi', dry_run: 'yes' }, 'dry_run: must be true or false');
    // 440 characters plus a serial number: over 3 SMS once filled in.
    const long = `${'x'.repeat(440)} {serial}`;
    const res = await textBand(p.user, { bucket: '0-7', text: long }).expect(400);
    expect(res.body.message).toBe(`text: filled in for device ${p.recent.item.serial_number} (Rehema Achieng) it is 4 SMS: it must fit in 3 for every customer`);
    expect(await t.db.db.message.count({ where: { organization_id: p.org.id, sent_by: { not: null } } })).toBe(0);
  });

  it(`refuses a band of more than ${MAX_BAND_SMS.toLocaleString('en')} devices`, async () => {
    const { org, user } = await seedTenant(t);
    await withSms(user);
    const d = await seedCustomerWithDevice(t, org.id, { template: { daily_price: '40.00' } });
    // The band's devices come from open_accounts: MAX_BAND_SMS + 1 rows of one device's account are enough to count.
    await t.db.db.item.update({ where: { organization_id_id: { organization_id: org.id, id: d.item.id } }, data: { credit_until: ago(2) } });
    const many = await t.db.pool.query(
      `INSERT INTO items (organization_id, serial_number, serial_normalized, product_name, secret_key_enc, starting_code_enc, customer_id, is_assigned, assigned_at, credit_until, status)
       SELECT $1::varchar, 'BULK-' || g, 'BULK' || g, 'Lamp', i.secret_key_enc, i.starting_code_enc, i.customer_id, true, now() - interval '30 days', now() - interval '2 days', 'assigned'
       FROM generate_series(1, $2::int) g, items i WHERE i.organization_id = $1::varchar AND i.item_id = $3::int`,
      [org.id, MAX_BAND_SMS, d.item.id],
    );
    expect(many.rowCount).toBe(MAX_BAND_SMS);
    const res = await textBand(user, { bucket: '0-7', text: 'Hi {name}' }).expect(409);
    expect(res.body.message).toBe('More than 10,000 devices are in this band: text a narrower band (by days without credit) at a time');
    expect(await t.db.db.message.count({ where: { organization_id: org.id } })).toBe(0);
  }, 60_000);

  it('is for owners and admins, and their organization only', async () => {
    const p = await portfolio();
    await withSms(p.user);
    const staff = await seedUser(t, { organization_id: p.org.id, role: 'staff' });
    await textBand(staff, { bucket: 'all', text: 'Hi {name}' }).expect(403);
    const admin = await seedUser(t, { organization_id: p.org.id, role: 'admin' });
    await textBand(admin, { bucket: 'all', text: 'Hi {name}', dry_run: true }).expect(200);
    const other = await seedTenant(t);
    await withSms(other.user);
    const theirs = ZBandSmsReplySchema.parse((await textBand(other.user, { bucket: 'all', text: 'Hi {name}' }).expect(200)).body);
    expect(theirs).toMatchObject({ recipients: 0, queued: 0 });
    expect(await t.db.db.message.count({ where: { organization_id: p.org.id, sent_by: { not: null } } })).toBe(0);
  });
});
