import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ZReceiveReplySchema } from '@kidogo/contracts';
import { createTestApp, type TestApp } from './support/test-app.js';
import { seedApiKey, seedTenant, type SeededUser } from './support/factories.js';

// MTN Mobile Money confirmations through the receiver, as an organization in
// Rwanda, Uganda or Ghana gets them (README "Receiving mobile-money
// payments"): the payer's message or reference names the device, or the
// payer's number finds its customer; the code goes back to the payer in the
// plan's money, and the same text forwarded again is a duplicate.

describe('MTN MoMo payments', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  /** An organization of that country with one customer, her device and a plan in its money, set up through the API. */
  async function business(country: string, currency: string, dailyPrice: number, phone: string, serial: string) {
    const { org, user } = await seedTenant(t);
    const key = await seedApiKey(t, user);
    await t.http.put('/payg/settings/phone-country').set(user.auth).send({ phone_country_code: country }).expect(200);
    const plan = await t.http
      .post('/payg/payments/templates/create')
      .set(user.auth)
      .send({ template_name: `Solar ${currency}`, daily_price: dailyPrice, currency })
      .expect(201);
    const customer = await t.http
      .post('/payg/register-customer')
      .set(user.auth)
      .send({ customer_name: 'Payer One', id_number: `ID-${serial}`, phone_contact: phone })
      .expect(201);
    await t.http.post('/payg/items/add').set(user.auth).send({ serial_number: serial, product_name: 'Solar Kit', price: dailyPrice * 400 }).expect(201);
    await t.http.post('/payg/items/assign').set(user.auth).send({ customer_id: customer.body.customer_id, item_serial_number: serial }).expect(200);
    await t.http.post('/payg/payments/templates/assign').set(user.auth).send({ customer_id: customer.body.customer_id, template_id: plan.body.template_id }).expect(200);
    const receive = async (message: string, from = 'M-Money') =>
      ZReceiveReplySchema.parse((await t.http.post('/payg/external/receive-phoneteletalk').set(key).send({ from, message }).expect(200)).body);
    return { org, user: user as SeededUser, receive };
  }

  const messageOf = (orgId: string, id: number) => t.db.db.message.findUniqueOrThrow({ where: { organization_id_id: { organization_id: orgId, id } } });

  it('Rwanda: the device named in the message from the sender gets the days, and the reply goes to the payer in RWF', async () => {
    const { org, receive } = await business('250', 'RWF', 500, '0788 654 321', 'RW-SHS-1');
    const text =
      'You have received 1,500 RWF from Payer ONE (250788654321) on your mobile money account at 2025-03-14 08:12:40. ' +
      'Message from sender: rw-shs-1. Your new balance:61,250 RWF. Financial Transaction Id: 81734405912.';

    const paid = await receive(text);
    expect(paid).toMatchObject({ status: 'processed', serial_number: 'RW-SHS-1', transaction_code: '81734405912', amount: '1500.00', days: 3 });
    const payment = await t.db.db.payment.findFirstOrThrow({ where: { organization_id: org.id, transaction_code: '81734405912' } });
    expect({ currency: payment.currency, amount: payment.amount.toFixed(2), payer: payment.payer_phone }).toEqual({ currency: 'RWF', amount: '1500.00', payer: '250788654321' });
    // The network's clock, read in the business's time zone (TIME_ZONE, Africa/Nairobi here).
    expect(payment.paid_at?.toISOString()).toBe('2025-03-14T05:12:40.000Z');
    const reply = await messageOf(org.id, paid.message_id!);
    expect(reply.recipient_number).toBe('250788654321');
    expect(reply.forwarded_message).toContain('RWF 1,500.00');
    expect(reply.forwarded_message).toContain('RW-SHS-1');

    // The gateway sends it again: the same payment, nothing recorded twice.
    const again = await receive(text);
    expect(again).toMatchObject({ status: 'duplicate', payment_id: paid.payment_id, token: paid.token });
    expect(await t.db.db.payment.count({ where: { organization_id: org.id } })).toBe(1);
  });

  it('Uganda: a text without a transaction id finds the payer by number, and the same text again is a duplicate', async () => {
    const { org, receive } = await business('256', 'UGX', 1000, '0772 418 903', 'UG-SHS-9');
    const text = "Y'ello. You have received\nUGX 3000.00 from \nNAMULI\nGRACE\n(256772418903) on your\nmobile money account at\n2025-05-10\n13:35:12.Your new\nbalance:UGX\n468816.00.";

    const paid = await receive(text, 'MTNMobMoney');
    expect(paid).toMatchObject({ status: 'processed', serial_number: 'UG-SHS-9', amount: '3000.00', days: 3 });
    expect(paid.transaction_code).toMatch(/^MTN-20250510133512-[0-9A-F]{8}$/);
    // The forwarding app changed the line breaks: still the same text, still the same payment.
    expect(await receive(text.replace(/\n/g, ' '), 'MTNMobMoney')).toMatchObject({ status: 'duplicate', payment_id: paid.payment_id });
    // Another payment in the same second, of another amount, is another payment.
    const other = await receive(text.replace('UGX 3000.00', 'UGX 2000.00'), 'MTNMobMoney');
    expect(other).toMatchObject({ status: 'processed', serial_number: 'UG-SHS-9', amount: '2000.00', days: 2 });
    expect(other.payment_id).not.toBe(paid.payment_id);
    expect(await t.db.db.payment.count({ where: { organization_id: org.id } })).toBe(2);
  });

  it('Ghana: a merchant payment by its reference; cash in at an agent is stored but not a payment', async () => {
    const { org, receive } = await business('233', 'GHS', 5, '0244 123 456', 'GH-LAMP-3');
    const paid = await receive(
      'Payment received for GHS 25.00 from AMA OWUSU Current Balance: GHS 1,204.50 . Available Balance: GHS 1,204.50. ' +
        'Reference: GH-LAMP-3. Transaction ID: 84157189977. TRANSACTION FEE: 0.00',
      'MobileMoney',
    );
    expect(paid).toMatchObject({ status: 'processed', serial_number: 'GH-LAMP-3', transaction_code: '84157189977', days: 5 });
    expect((await t.db.db.payment.findFirstOrThrow({ where: { organization_id: org.id } })).currency).toBe('GHS');

    const cashIn = await receive('Cash In received for GHS 100.00 from KOFI AGENT. Current Balance: GHS 538.01. Transaction ID: 84157190001.', 'MobileMoney');
    expect(cashIn).toMatchObject({ status: 'unparsed', error: 'Not a payment confirmation: a deposit into the account, not a payment' });
    const stored = await messageOf(org.id, cashIn.message_id!);
    expect(stored.status).toBe('unparsed');
    expect(await t.db.db.payment.count({ where: { organization_id: org.id } })).toBe(1);
  });

  it('holds money in another currency than the plan: RWF paid to a device priced in UGX', async () => {
    const { org, receive } = await business('256', 'UGX', 1000, '0772 555 010', 'UG-SHS-10');
    const held = await receive(
      'You have received 3,000 RWF from Payer ONE (256772555010) on your mobile money account at 2025-03-14 08:12:40. ' +
        'Message from sender: UG-SHS-10. Your new balance:9,000 RWF. Financial Transaction Id: 81734405999.',
    );
    expect(held.status).toBe('unmatched');
    expect(held.hold_reason).toBe('Paid in RWF, but the plan of device UG-SHS-10 is in UGX: held until staff match it');
    const payment = await t.db.db.payment.findFirstOrThrow({ where: { organization_id: org.id } });
    expect(payment.status).toBe('pending');
  });
});
