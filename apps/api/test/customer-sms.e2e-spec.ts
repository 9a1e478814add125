import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { smsParts, ZCustomerSmsReplySchema, ZDeviceActivitySchema, ZMessageListReplySchema } from '@kidogo/contracts';
import { createTestApp, type TestApp } from './support/test-app.js';
import { seedCustomer, seedCustomerWithDevice, seedItem, seedTenant, seedUser, type SeededUser } from './support/factories.js';

// POST /payg/customers/{id}/sms: staff text a customer through the
// organization's SMS provider (README "Receiving mobile-money payments",
// "Texting a customer").

describe('texting a customer', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const withSms = (owner: SeededUser) =>
    t.http.put('/payg/settings/sms-provider').set(owner.auth).send({ provider: 'sms_webhook', config: { url: 'http://127.0.0.1:9/sms' } }).expect(200);
  const text = (user: SeededUser, customerId: number, body: object) => t.http.post(`/payg/customers/${customerId}/sms`).set(user.auth).send(body);

  it('queues the text to the customer’s phone, shows who wrote it, in the device’s history too, and audits it', async () => {
    const { user: owner, org } = await seedTenant(t);
    await withSms(owner);
    const staff = await seedUser(t, { organization_id: org.id, role: 'staff' });
    const s = await seedCustomerWithDevice(t, org.id);
    await t.db.db.customer.update({ where: { organization_id_id: { organization_id: org.id, id: s.customer.id } }, data: { phone_contact: '0712 345 678', phone_normalized: '254712345678' } });

    const body = { text: '  Habari! We called about your solar lamp. Please pay KES 150 by Friday.  ', serial_number: s.item.serial_number };
    const reply = ZCustomerSmsReplySchema.parse((await text(staff, s.customer.id, body).expect(201)).body);
    expect(reply).toEqual({
      message: `SMS to ${s.customer.customer_name} queued`,
      message_id: expect.any(Number),
      recipient_number: '254712345678',
      parts: 1,
      delivery_status: 'queued',
    });
    const row = await t.db.db.message.findUniqueOrThrow({ where: { organization_id_id: { organization_id: org.id, id: reply.message_id } } });
    expect(row).toMatchObject({
      forwarded_message: 'Habari! We called about your solar lamp. Please pay KES 150 by Friday.',
      recipient_number: '254712345678',
      delivery_status: 'queued',
      item_id: s.item.id,
      payment_id: null,
      received_message: null,
      sent_by: staff.username,
    });
    // Message History and the device's activity say who wrote it.
    const history = ZMessageListReplySchema.parse((await t.http.get('/payg/fetch_messages').set(staff.auth).expect(200)).body);
    expect(history.data.find((m) => m.id === reply.message_id)).toMatchObject({ sent_by: staff.username, Incoming: null, recipient_number: '254712345678' });
    const activity = ZDeviceActivitySchema.parse((await t.http.get(`/payg/devices/${s.item.serial_number}/activity`).set(staff.auth).expect(200)).body);
    expect(activity.data.message_history.items).toEqual([expect.objectContaining({ id: reply.message_id, sent_by: staff.username })]);
    const audit = await t.db.platform.auditLog.findFirstOrThrow({ where: { organization_id: org.id, action: 'customer.sms_sent' } });
    expect(audit).toMatchObject({ actor_username: staff.username, entity_id: String(s.customer.id) });
    expect(audit.metadata).toMatchObject({ message_id: reply.message_id, parts: 1, serial_number: s.item.serial_number });

    // Without a device, only in Message History; a long text is several SMS.
    const long = ZCustomerSmsReplySchema.parse((await text(owner, s.customer.id, { text: 'x'.repeat(200) }).expect(201)).body);
    expect(long.parts).toBe(2);
    expect((await t.db.db.message.findUniqueOrThrow({ where: { organization_id_id: { organization_id: org.id, id: long.message_id } } })).item_id).toBeNull();
  });

  it('counts SMS parts as the networks do', () => {
    expect(smsParts('a'.repeat(160))).toEqual({ encoding: 'GSM-7', length: 160, parts: 1 });
    expect(smsParts('a'.repeat(161))).toEqual({ encoding: 'GSM-7', length: 161, parts: 2 });
    // The escaped characters take two.
    expect(smsParts('€'.repeat(80))).toEqual({ encoding: 'GSM-7', length: 160, parts: 1 });
    expect(smsParts('{'.repeat(81)).parts).toBe(2);
    // One character outside the alphabet sends the whole text as UCS-2.
    expect(smsParts(`${'a'.repeat(69)}’`)).toEqual({ encoding: 'UCS-2', length: 70, parts: 1 });
    expect(smsParts(`${'a'.repeat(70)}😀`)).toEqual({ encoding: 'UCS-2', length: 72, parts: 2 });
  });

  it('names the bad field, and refuses what it cannot send', async () => {
    const { user: owner, org } = await seedTenant(t);
    const s = await seedCustomerWithDevice(t, org.id);
    // No SMS provider yet: nothing would ever send it.
    const none = await text(owner, s.customer.id, { text: 'Hello' }).expect(409);
    expect(none.body.detail).toBe('No SMS provider is set up to send it: an owner or admin sets one in Settings → SMS Provider');
    await withSms(owner);

    for (const [body, detail] of [
      [{}, 'text: is required'],
      [{ text: '   ' }, 'text: is required'],
      [{ text: 'y'.repeat(460) }, 'text: must fit in 3 SMS'],
      [{ text: '😀'.repeat(101) }, 'text: must fit in 3 SMS'],
    ] as const) {
      const bad = await text(owner, s.customer.id, body).expect(400);
      expect(bad.body.detail).toContain(detail);
    }
    expect((await text(owner, s.customer.id, { text: 'y'.repeat(459) }).expect(201)).body.parts).toBe(3);

    // Another customer's device; an unknown one; an unknown customer; a customer without a phone.
    const other = await seedItem(t, org.id, { customer_id: (await seedCustomer(t, org.id)).id });
    const foreign = await text(owner, s.customer.id, { text: 'Hello', serial_number: other.serial_number }).expect(400);
    expect(foreign.body.detail).toBe(`serial_number: device ${other.serial_number} is not ${s.customer.customer_name}'s`);
    await text(owner, s.customer.id, { text: 'Hello', serial_number: 'NO-SUCH-DEVICE' }).expect(404);
    await text(owner, 999_999, { text: 'Hello' }).expect(404);
    await t.http.post('/payg/customers/abc/sms').set(owner.auth).send({ text: 'Hello' }).expect(400);
    await t.db.db.customer.update({ where: { organization_id_id: { organization_id: org.id, id: s.customer.id } }, data: { phone_contact: '', phone_normalized: null } });
    const phoneless = await text(owner, s.customer.id, { text: 'Hello' }).expect(409);
    expect(phoneless.body.detail).toBe(`${s.customer.customer_name} has no phone number to text: add one to the customer first`);

    // Another organization cannot text this one's customers.
    const b = await seedTenant(t);
    await withSms(b.user);
    await text(b.user, s.customer.id, { text: 'Hello' }).expect(404);
    expect(await t.db.db.message.count({ where: { organization_id: b.org.id } })).toBe(0);
    await t.http.post(`/payg/customers/${s.customer.id}/sms`).send({ text: 'Hello' }).expect(401);
  });
});
