import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  ZBandSmsReplySchema,
  ZCollectionsReplySchema,
  ZCustomerPaymentDetailsSchema,
  ZCustomerSchema,
  ZReceiveReplySchema,
  ZSmsOptOutReplySchema,
} from '@kidogo/contracts';
import { Calendar } from '../src/common/calendar.js';
import { RemindersService } from '../src/reminders/reminders.service.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { mpesaPaybillSms, seedApiKey, seedCustomerWithDevice, seedTenant, seedUser, type SeededUser } from './support/factories.js';

// A customer texts STOP (ACHA) to the business line, or asks staff: no more
// texts nobody asked for (reminders, staff, Collections bands); the code for
// their own payment and the answer to BAL still go. START (ANZA) or an owner
// or admin lets them through again (README "Texts a customer can stop").

const DAY = 86_400_000;
const HOUR = 3_600_000;
const STOPPED =
  'Kidogo: You will get no more reminders or other texts from us. Payment codes and balance replies still come. Text START to get them again.';

describe('texts a customer can stop', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { TIME_ZONE: 'Africa/Nairobi' } });
  });
  afterAll(() => t.close());

  const receive = async (key: { 'X-API-Key': string }, from: string, message: string) =>
    ZReceiveReplySchema.parse((await t.http.post('/payg/external/receive-phoneteletalk').set(key).send({ from, message }).expect(200)).body);
  const customer = (orgId: string, id: number) => t.db.db.customer.findUniqueOrThrow({ where: { organization_id_id: { organization_id: orgId, id } } });
  const withSms = (owner: SeededUser) =>
    t.http.put('/payg/settings/sms-provider').set(owner.auth).send({ provider: 'sms_webhook', config: { url: 'http://127.0.0.1:9/sms' } }).expect(200);

  /** Two customers sharing the phone 0722 000 333 (a mother and her son), each with a device 10 days out of credit, and one other. */
  async function family() {
    const { org, user } = await seedTenant(t);
    const key = await seedApiKey(t, user);
    const mk = async (name: string, phone: string) => {
      const d = await seedCustomerWithDevice(t, org.id, { template: { daily_price: '40.00', free_code_price: '10000.00', currency: 'KES' } });
      await t.db.db.customer.update({
        where: { organization_id_id: { organization_id: org.id, id: d.customer.id } },
        data: { customer_name: name, phone_contact: phone, phone_normalized: `254${phone.slice(1)}` },
      });
      await t.db.db.item.update({
        where: { organization_id_id: { organization_id: org.id, id: d.item.id } },
        data: { credit_until: new Date(Date.now() - 10 * DAY - HOUR) },
      });
      return d;
    };
    const mother = await mk('Wanjiku Mwangi', '0722000333');
    const son = await mk('Kamau Mwangi', '0722000333');
    const other = await mk('Otieno Odhiambo', '0722000444');
    return { org, user, key, mother, son, other };
  }

  it('STOP from the phone opts out every customer with it, confirms once, audits each; START undoes it', async () => {
    const f = await family();
    const stop = await receive(f.key, '+254 722 000 333', 'Stop');
    expect(stop).toEqual({ status: 'processed', request: 'sms_opt_out', serial_number: null, reply_message: STOPPED, customers: 2, message_id: expect.any(Number) });
    const row = await t.db.db.message.findUniqueOrThrow({ where: { organization_id_id: { organization_id: f.org.id, id: stop.message_id } } });
    expect(row).toMatchObject({ status: 'processed', received_message: 'Stop', forwarded_message: STOPPED, recipient_number: '254722000333', delivery_status: 'queued' });
    for (const c of [f.mother, f.son]) expect(await customer(f.org.id, c.customer.id)).toMatchObject({ sms_opted_out_at: expect.any(Date), sms_opt_out_source: 'sms' });
    expect((await customer(f.org.id, f.other.customer.id)).sms_opted_out_at).toBeNull();
    const audit = await t.db.platform.auditLog.findMany({ where: { organization_id: f.org.id, action: 'customer.sms_opted_out' }, orderBy: { id: 'asc' } });
    expect(audit.map((a) => [a.entity_id, a.actor_username])).toEqual(
      expect.arrayContaining([
        [String(f.mother.customer.id), null],
        [String(f.son.customer.id), null],
      ]),
    );
    expect(audit[0]!.description).toMatch(/texted STOP from 254722000333/);

    // A second STOP changes nothing and is confirmed again; it is the customer's own text.
    expect(await receive(f.key, '0722000333', 'STOP')).toMatchObject({ request: 'sms_opt_out', customers: 0, reply_message: STOPPED });
    expect(await t.db.platform.auditLog.count({ where: { organization_id: f.org.id, action: 'customer.sms_opted_out' } })).toBe(2);

    // START, in Kiswahili this time.
    await t.db.db.organization.update({ where: { id: f.org.id }, data: { reply_language: 'sw' } });
    const start = await receive(f.key, '0722000333', 'anza');
    expect(start).toMatchObject({ request: 'sms_opt_in', customers: 2, reply_message: 'Kidogo: Utapokea tena vikumbusho na ujumbe mwingine kutoka kwetu. Tuma ACHA kuzisitisha.' });
    for (const c of [f.mother, f.son]) expect(await customer(f.org.id, c.customer.id)).toMatchObject({ sms_opted_out_at: null, sms_opt_out_source: null });
    expect(await t.db.platform.auditLog.count({ where: { organization_id: f.org.id, action: 'customer.sms_opted_in' } })).toBe(2);
  });

  it("leaves a STOP from a phone no customer has unanswered, and never touches another organization's customers", async () => {
    const f = await family();
    const stranger = await receive(f.key, '0799000999', 'STOP');
    expect(stranger).toMatchObject({ status: 'unparsed' });
    expect(stranger.reply_message ?? null).toBeNull();
    // Another organization's customer with the same phone.
    const b = await seedTenant(t);
    const bKey = await seedApiKey(t, b.user);
    const theirs = await seedCustomerWithDevice(t, b.org.id);
    await t.db.db.customer.update({
      where: { organization_id_id: { organization_id: b.org.id, id: theirs.customer.id } },
      data: { phone_contact: '0722000333', phone_normalized: '254722000333' },
    });
    await receive(f.key, '0722000333', 'STOP');
    expect((await customer(b.org.id, theirs.customer.id)).sms_opted_out_at).toBeNull();
    expect(await receive(bKey, '0722000333', 'START')).toMatchObject({ request: 'sms_opt_in', customers: 0 });
    expect((await customer(f.org.id, f.mother.customer.id)).sms_opted_out_at).not.toBeNull();
  });

  it('passes an opted-out customer over in texts nobody asked for, but their payment still gets its code', async () => {
    const f = await family();
    await withSms(f.user);
    await receive(f.key, '0722000333', 'ACHA');

    // Staff cannot text them.
    const staff = await t.http
      .post(`/payg/customers/${f.mother.customer.id}/sms`)
      .set(f.user.auth)
      .send({ text: 'Habari, we called about your lamp.' })
      .expect(409);
    const day = new Date().toLocaleDateString('en-CA', { timeZone: 'Africa/Nairobi' });
    expect(staff.body.message).toBe(
      `Wanjiku Mwangi texted STOP on ${day}: call them instead (an owner or admin lets texts through again when they ask)`,
    );
    await t.http.post(`/payg/customers/${f.other.customer.id}/sms`).set(f.user.auth).send({ text: 'Habari.' }).expect(201);

    // Collections shows it, and a band's text skips them.
    const list = ZCollectionsReplySchema.parse((await t.http.get('/payg/collections').set(f.user.auth).expect(200)).body);
    const flags = Object.fromEntries(list.data.items.map((a) => [a.customer_name, a.sms_opted_out]));
    expect(flags).toEqual({ 'Wanjiku Mwangi': true, 'Kamau Mwangi': true, 'Otieno Odhiambo': false });
    const band = ZBandSmsReplySchema.parse(
      (await t.http.post('/payg/collections/sms').set(f.user.auth).send({ bucket: '8-30', text: 'Habari {name}, pay to {serial}.' }).expect(200)).body,
    );
    expect(band).toMatchObject({ recipients: 1, skipped_opted_out: 2, skipped_no_phone: 0, queued: 1 });
    expect(band.sample.map((s) => s.customer_name)).toEqual(['Otieno Odhiambo']);

    // The customer's page says so.
    const details = ZCustomerPaymentDetailsSchema.parse(
      (await t.http.get(`/payg/customers/${f.son.customer.id}/payment-details`).set(f.user.auth).expect(200)).body,
    );
    expect(details.data.customer_info).toMatchObject({ sms_opted_out_at: expect.any(String), sms_opt_out_source: 'sms' });

    // Their own payment still gets its code.
    const paid = await receive(
      f.key,
      'MPESA',
      mpesaPaybillSms({ code: 'SOPT123456', amount: '80.00', account: f.mother.item.serial_number, phone: '254722000333', name: 'WANJIKU MWANGI' }),
    );
    expect(paid.status).toBe('processed');
    const reply = await t.db.db.message.findUniqueOrThrow({ where: { organization_id_id: { organization_id: f.org.id, id: paid.message_id } } });
    expect(reply).toMatchObject({ recipient_number: '254722000333', delivery_status: 'queued' });
    expect(reply.forwarded_message).toContain(f.mother.item.serial_number);
  });

  it('leaves an opted-out customer out of the payment reminders', async () => {
    const { org, user } = await seedTenant(t);
    await withSms(user);
    await t.http.put('/payg/settings/reminders').set(user.auth).send({ enabled: true, days_before: 1, send_hour: 0 }).expect(200);
    const cal = new Calendar('Africa/Nairobi');
    const tomorrowNoon = new Date(cal.startOf(cal.today() + 1).getTime() + 12 * HOUR);
    const mk = async (optedOut: boolean) => {
      const d = await seedCustomerWithDevice(t, org.id, { template: { daily_price: '45.00', currency: 'KES' } });
      await t.db.db.item.update({ where: { organization_id_id: { organization_id: org.id, id: d.item.id } }, data: { credit_until: tomorrowNoon } });
      if (optedOut) {
        await t.db.db.customer.update({
          where: { organization_id_id: { organization_id: org.id, id: d.customer.id } },
          data: { sms_opted_out_at: new Date(), sms_opt_out_source: 'staff' },
        });
      }
      return d;
    };
    const wants = await mk(false);
    const stopped = await mk(true);
    await t.app.get(RemindersService).sweep(new Date(cal.startOf(cal.today()).getTime() + 10 * HOUR));
    const sent = await t.db.db.message.findMany({ where: { organization_id: org.id, payment_id: null, forwarded_message: { not: null } } });
    expect(sent.map((m) => m.item_id)).toEqual([wants.item.id]);
    expect(sent.some((m) => m.item_id === stopped.item.id)).toBe(false);
  });

  it('staff record an opt-out when the customer asks; only owners and admins let texts through again', async () => {
    const f = await family();
    const staff = await seedUser(t, { organization_id: f.org.id, role: 'staff' });
    const url = `/payg/customers/${f.other.customer.id}/sms-opt-out`;

    const out = ZSmsOptOutReplySchema.parse((await t.http.post(url).set(staff.auth).expect(200)).body);
    expect(out.message).toBe('Otieno Odhiambo will get no more reminders or texts from staff; payment codes and balance replies still go');
    expect(out.customer).toMatchObject({ customer_id: f.other.customer.id, sms_opted_out_at: expect.any(String), sms_opt_out_source: 'staff' });
    const again = ZSmsOptOutReplySchema.parse((await t.http.post(url).set(staff.auth).expect(200)).body);
    expect(again).toEqual({ message: 'Otieno Odhiambo had already asked for no texts', customer: out.customer });
    // The customer reply shows it too.
    const read = ZCustomerSchema.parse((await t.http.get(`/payg/customers/${f.other.customer.id}`).set(staff.auth).expect(200)).body);
    expect(read.sms_opt_out_source).toBe('staff');

    await t.http.delete(url).set(staff.auth).expect(403);
    expect((await customer(f.org.id, f.other.customer.id)).sms_opted_out_at).not.toBeNull();
    const back = ZSmsOptOutReplySchema.parse((await t.http.delete(url).set(f.user.auth).expect(200)).body);
    expect(back.message).toBe('Otieno Odhiambo takes reminders and texts again');
    expect(back.customer).toMatchObject({ sms_opted_out_at: null, sms_opt_out_source: null });

    const audit = await t.db.platform.auditLog.findMany({ where: { organization_id: f.org.id, entity_id: String(f.other.customer.id) }, orderBy: { id: 'asc' } });
    expect(audit.map((a) => [a.action, a.actor_username])).toEqual([
      ['customer.sms_opted_out', staff.username],
      ['customer.sms_opted_in', f.user.username],
    ]);

    // Bad ids and other organizations' customers.
    expect((await t.http.post('/payg/customers/abc/sms-opt-out').set(staff.auth).expect(400)).body.message).toMatch(/id/);
    const b = await seedTenant(t);
    await t.http.post(url).set(b.user.auth).expect(404);
    await t.http.delete(url).set(b.user.auth).expect(404);
    expect((await customer(f.org.id, f.other.customer.id)).sms_opted_out_at).toBeNull();
  });
});
