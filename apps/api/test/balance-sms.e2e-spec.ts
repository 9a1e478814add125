import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ZReceiveReplySchema } from '@kidogo/contracts';
import { createTestApp, type TestApp } from './support/test-app.js';
import { payCash } from './support/plans.js';
import { seedApiKey, seedCustomer, seedCustomerWithDevice, seedItem, seedTenant } from './support/factories.js';
import { ReceiverService } from '../src/receiver/receiver.service.js';

// A customer texts BAL (BALANCE, SALIO) to the business line; the forwarder
// posts it to the receiver, which answers with each of the customer's devices'
// credit and what is left to pay (README "Balance by SMS").

const DAY_MS = 86_400_000;

describe('balance by SMS', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { TIME_ZONE: 'Africa/Nairobi' } });
  });
  afterAll(() => t.close());

  const receive = async (key: { 'X-API-Key': string }, from: string, message: string) =>
    ZReceiveReplySchema.parse((await t.http.post('/payg/external/receive-phoneteletalk').set(key).send({ from, message }).expect(200)).body);
  const messageRow = (orgId: string, id: number) => t.db.db.message.findUniqueOrThrow({ where: { organization_id_id: { organization_id: orgId, id } } });
  /** "27 Nov" for a date, as the reply writes it in Nairobi ("1 Des" in Kiswahili). */
  const SW_MONTHS: Record<string, string> = { Mar: 'Mac', May: 'Mei', Aug: 'Ago', Oct: 'Okt', Dec: 'Des' };
  const FR_MONTHS: Record<string, string> = { Jan: 'janv', Feb: 'fevr', Mar: 'mars', Apr: 'avr', May: 'mai', Jun: 'juin', Jul: 'juil', Aug: 'aout', Sep: 'sept', Oct: 'oct', Nov: 'nov', Dec: 'dec' };
  const short = (d: Date, language: 'en' | 'sw' | 'fr' = 'en') => {
    const [day, month] = new Intl.DateTimeFormat('en-GB', { timeZone: 'Africa/Nairobi', day: 'numeric', month: 'short' }).format(d).split(' ');
    return `${day} ${language === 'sw' ? (SW_MONTHS[month!] ?? month) : language === 'fr' ? FR_MONTHS[month!] : month}`;
  };

  /** Grace, phone 0712 000 111, with a lamp on a plan (paid 100: 5 days) and a phone paid off. */
  async function grace() {
    const { user, org } = await seedTenant(t);
    const key = await seedApiKey(t, user);
    const lamp = await seedCustomerWithDevice(t, org.id, { template: { daily_price: '20.00', free_code_price: '5000.00' } });
    await t.db.db.customer.update({
      where: { organization_id_id: { organization_id: org.id, id: lamp.customer.id } },
      data: { customer_name: 'Grace Achieng', phone_contact: '0712000111', phone_normalized: '254712000111' },
    });
    await payCash(t, user, lamp.item.serial_number, '100.00');
    const phone = await seedItem(t, org.id, { customer_id: lamp.customer.id, product_name: 'Smartphone' });
    await t.db.db.itemAssignment.create({ data: { organization_id: org.id, item_id: phone.id, customer_id: lamp.customer.id } });
    await t.db.db.item.update({ where: { organization_id_id: { organization_id: org.id, id: phone.id } }, data: { paid_off_at: new Date() } });
    const until = (await t.db.db.item.findUniqueOrThrow({ where: { organization_id_id: { organization_id: org.id, id: lamp.item.id } } })).credit_until!;
    return { user, org, key, lamp: lamp.item, phone, until };
  }

  it("answers the customer's phone with each device's credit and what is left, and queues the reply", async () => {
    const g = await grace();
    const reply = await receive(g.key, '+254 712 000 111', 'bal');
    const text = `Kidogo: Hi Grace. ${g.lamp.serial_number}: credit until ${short(g.until)}, KES 4,900.00 left to pay. ${g.phone.serial_number}: paid off.`;
    expect(reply).toEqual({ status: 'processed', request: 'balance', serial_number: null, reply_message: text, message_id: expect.any(Number) });
    expect(g.until.getTime() - Date.now()).toBeGreaterThan(4 * DAY_MS);
    expect(await messageRow(g.org.id, reply.message_id)).toMatchObject({
      status: 'processed',
      received_message: 'bal',
      forwarded_message: text,
      recipient_number: '254712000111',
      delivery_status: 'queued',
      payment_id: null,
      item_id: null,
    });
    // Nothing else happened: no payment, no token.
    expect(await t.db.db.payment.count({ where: { organization_id: g.org.id } })).toBe(1);
  });

  it('names one device when asked, in Kiswahili, and says when the serial is none of theirs', async () => {
    const g = await grace();
    await t.db.db.organization.update({ where: { id: g.org.id }, data: { reply_language: 'sw' } });
    const one = await receive(g.key, '0712000111', `SALIO ${g.lamp.serial_number.toLowerCase()}`);
    expect(one.reply_message).toBe(`Kidogo: Habari Grace. ${g.lamp.serial_number}: salio hadi ${short(g.until, 'sw')}, zimebaki KES 4,900.00 kulipa.`);
    expect(one.serial_number).toBe(g.lamp.serial_number);
    expect((await messageRow(g.org.id, one.message_id)).item_id).toBe(g.lamp.id);

    // In French, asked with SOLDE.
    await t.db.db.organization.update({ where: { id: g.org.id }, data: { reply_language: 'fr' } });
    const solde = await receive(g.key, '0712000111', `Solde ${g.lamp.serial_number}`);
    expect(solde.reply_message).toBe(`Kidogo: Bonjour Grace. ${g.lamp.serial_number}: credit jusqu'au ${short(g.until, 'fr')}, reste KES 4,900.00 a payer.`);

    await t.db.db.organization.update({ where: { id: g.org.id }, data: { reply_language: 'en' } });
    const wrong = await receive(g.key, '0712000111', 'BALANCE XYZ-999');
    expect(wrong.reply_message).toMatch(/^Kidogo: Hi Grace\. No device XYZ-999 on your account\. .*: credit until/);
  });

  it('says when the credit ran out', async () => {
    const g = await grace();
    const ended = new Date(Date.now() - 3 * DAY_MS);
    await t.db.db.item.update({ where: { organization_id_id: { organization_id: g.org.id, id: g.lamp.id } }, data: { credit_until: ended } });
    const reply = await receive(g.key, '0712000111', `BAL ${g.lamp.serial_number}`);
    expect(reply.reply_message).toContain(`${g.lamp.serial_number}: no credit since ${short(ended)}, KES 4,900.00 left to pay.`);
  });

  it('texts nobody back for a phone no single customer has, and keeps the text as unparsed', async () => {
    const g = await grace();
    const stranger = await receive(g.key, '0799999999', 'BAL');
    expect(stranger).toMatchObject({ status: 'unparsed' });
    expect(stranger.request).toBeUndefined();
    expect(await messageRow(g.org.id, stranger.message_id)).toMatchObject({ status: 'unparsed', forwarded_message: null, delivery_status: 'none' });
    // Two customers on one phone: which one asked is not known.
    const twin = await seedCustomer(t, g.org.id, { phone_contact: '0712000111' });
    await t.db.db.customer.update({ where: { organization_id_id: { organization_id: g.org.id, id: twin.id } }, data: { phone_normalized: '254712000111' } });
    expect((await receive(g.key, '0712000111', 'BAL')).status).toBe('unparsed');
    // Another organization's customer with that phone is not this one's.
    const other = await seedTenant(t);
    const otherKey = await seedApiKey(t, other.user);
    expect((await receive(otherKey, '0712000111', 'BAL')).status).toBe('unparsed');
  });

  it('answers a request the recovery sweep finds waiting', async () => {
    const g = await grace();
    const left = await t.db.db.message.create({
      data: {
        organization_id: g.org.id,
        raw_payload: { from: '254712000111', message: 'Balance' },
        received_message: 'Balance',
        sender: '254712000111',
        status: 'received',
        created_at: new Date(Date.now() - 5 * 60_000),
      },
    });
    expect(await t.app.get(ReceiverService).recover()).toBeGreaterThanOrEqual(1);
    expect(await messageRow(g.org.id, left.id)).toMatchObject({
      status: 'processed',
      recipient_number: '254712000111',
      delivery_status: 'queued',
      forwarded_message: expect.stringMatching(/^Kidogo: Hi Grace\. /),
    });
  });

  it("texts each device's last code again for CODE, and one device's for CODE with its serial", async () => {
    const g = await grace();
    const [last] = await t.db.db.tokenLog.findMany({ where: { organization_id: g.org.id, item_id: g.lamp.id }, orderBy: { id: 'desc' }, take: 1 });
    const grouped = last!.token_value.match(/.{1,3}/g)!.join(' ');
    const issued = short(last!.created_at);
    const reply = await receive(g.key, '+254712000111', 'Code');
    expect(reply).toEqual({
      status: 'processed',
      request: 'code',
      serial_number: null,
      reply_message: `Kidogo: Hi Grace. ${g.lamp.serial_number} last code: ${grouped} (${issued}, 5 days). No code has been issued for ${g.phone.serial_number} yet.`,
      message_id: expect.any(Number),
    });
    expect(await messageRow(g.org.id, reply.message_id)).toMatchObject({ recipient_number: '254712000111', delivery_status: 'queued', item_id: null });
    const one = await receive(g.key, '0712000111', `token ${g.lamp.serial_number}`);
    expect(one).toMatchObject({ request: 'code', serial_number: g.lamp.serial_number, reply_message: `Kidogo: Hi Grace. ${g.lamp.serial_number} last code: ${grouped} (${issued}, 5 days).` });
    expect((await messageRow(g.org.id, one.message_id)).item_id).toBe(g.lamp.id);
    // In Kiswahili, asked with NAMBA; nothing but the reply: no payment, no code issued.
    await t.db.db.organization.update({ where: { id: g.org.id }, data: { reply_language: 'sw' } });
    expect((await receive(g.key, '0712000111', `NAMBA ${g.lamp.serial_number}`)).reply_message).toBe(
      `Kidogo: Habari Grace. Namba ya mwisho ya ${g.lamp.serial_number}: ${grouped} (${short(last!.created_at, 'sw')}, siku 5).`,
    );
    expect(await t.db.db.tokenLog.count({ where: { organization_id: g.org.id } })).toBe(1);
    // From a phone no customer has: kept as unparsed, nobody texted.
    expect((await receive(g.key, '0799000999', 'CODE')).status).toBe('unparsed');
  });
});
