import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ZUssdSessionsReplySchema, ZUssdSettingsReplySchema, ZUssdTryReplySchema } from '@kidogo/contracts';
import { createTestApp, type TestApp } from './support/test-app.js';
import { DARAJA_KEYS as KEYS, FakeDaraja } from './support/fake-daraja.js';
import { seedCustomer, seedCustomerWithDevice, seedRoles, seedUser, type SeededUser } from './support/factories.js';

// The customers' USSD menu (README "USSD menu"): the gateway posts each step of a session, with every answer so far
// in text, to the organization's own address; the customer reads their balance, gets their last code again (and by
// SMS), pays (the phone's PIN prompt, from a fake Safaricom on a real port) or reports a problem (a service ticket).

describe('the USSD menu', () => {
  let t: TestApp;
  const daraja = new FakeDaraja();
  beforeAll(async () => {
    await daraja.start();
    t = await createTestApp({ env: { PUBLIC_URL: 'https://payg.example.com' } });
  });
  afterAll(async () => {
    await t?.close();
    await daraja.stop();
  });

  const settings = async (user: SeededUser) => ZUssdSettingsReplySchema.parse((await t.http.get('/payg/settings/ussd').set(user.auth).expect(200)).body).data;
  const turn = async (user: SeededUser, enabled: boolean) =>
    ZUssdSettingsReplySchema.parse((await t.http.put('/payg/settings/ussd').set(user.auth).send({ enabled }).expect(200)).body);
  const keyOf = (url: string) => url.slice(url.lastIndexOf('/') + 1);
  let sessions = 0;
  /** One session on a phone: dial(...) posts its steps as the gateway does, form-encoded, and answers each reply. */
  const session = (key: string, phoneNumber: string) => {
    const sessionId = `ATUid_${Date.now()}_${sessions++}`;
    return (text: string) =>
      t.http
        .post(`/payg/external/ussd/${key}`)
        .type('form')
        .send({ sessionId, serviceCode: '*384*123#', phoneNumber, networkCode: '63902', text })
        .expect(200)
        .expect('content-type', /^text\/plain/)
        .then((r) => ({ text: r.text, sessionId }));
  };

  /** An organization with the menu on, an SMS provider, and a customer on a KES 50 a day plan who paid twice. */
  const ready = async (opts: { mpesa?: boolean } = {}) => {
    const roles = await seedRoles(t);
    const { org, owner, staff, superAdmin } = roles;
    await t.db.db.organization.update({ where: { id: org.id }, data: { name: 'Jua Power' } });
    await t.http.put('/payg/settings/sms-provider').set(owner.auth).send({ provider: 'sms_webhook', config: { url: 'http://127.0.0.1:9/sms' } }).expect(200);
    if (opts.mpesa) {
      await t.http.put('/payg/settings/mpesa-express').set(owner.auth).send({ environment: 'sandbox', short_code: '174379', ...KEYS }).expect(200);
      const list = await t.http.get('/payg/admin/payment-providers').query({ organization_id: org.id }).set(superAdmin.auth).expect(200);
      const row = (list.body.data as { id: number; provider: string; config: Record<string, unknown> }[]).find((p) => p.provider === 'mpesa_express')!;
      await t.http.put(`/payg/admin/payment-providers/${row.id}`).set(superAdmin.auth).send({ config: { ...row.config, base_url: daraja.url } }).expect(200);
    }
    const { customer, item } = await seedCustomerWithDevice(t, org.id, {
      customer: { phone_contact: '0712 345 678', customer_name: 'Amina Wanjiru' },
      template: { daily_price: '50.00', deposit_made: '0.00', activation_price: '0.00', free_code_price: '10000.00', currency: 'KES' },
    });
    for (const amount of [100, 150]) {
      await t.http.post('/payg/payments').set(staff.auth).send({ serial_number: item.serial_number, amount, payment_method: 'cash' }).expect(201);
    }
    const on = await turn(owner, true);
    return { ...roles, customer, item, key: keyOf(on.data.callback_url!) };
  };

  it('is turned on and off by owners and admins, at an address only its gateway knows', async () => {
    const { org, owner, admin, staff } = await seedRoles(t);
    await t.http.get('/payg/settings/ussd').set(staff.auth).expect(403);
    await t.http.put('/payg/settings/ussd').set(staff.auth).send({ enabled: true }).expect(403);
    expect(await settings(owner)).toEqual({
      enabled: false,
      callback_url: null,
      enabled_at: null,
      enabled_by: null,
      sessions_7d: 0,
      customers_7d: 0,
      last_session_at: null,
      service_code: null,
    });
    const bad = await t.http.put('/payg/settings/ussd').set(owner.auth).send({ enabled: 'yes' }).expect(400);
    expect(bad.body.errors).toEqual([{ field: 'enabled', message: 'must be true or false' }]);

    const on = await turn(owner, true);
    expect(on.message).toBe('The USSD menu is on: give its address to your USSD gateway as the callback URL');
    expect(on.data).toMatchObject({ enabled: true, enabled_by: owner.username });
    expect(on.data.callback_url).toMatch(/^https:\/\/payg\.example\.com\/payg\/external\/ussd\/ussd_[A-Za-z0-9_-]{32}$/);
    const key = keyOf(on.data.callback_url!);
    // Only its sha256 is looked up; the key itself is sealed.
    const stored = await t.db.platform.organization.findUniqueOrThrow({ where: { id: org.id } });
    expect(stored.ussd_key_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored.ussd_key_enc).not.toContain(key);
    // On again: the same address. An admin may too.
    expect((await turn(admin, true)).message).toBe('The USSD menu is already on');
    expect((await settings(owner)).callback_url).toBe(on.data.callback_url);

    // Off: the gateway still reaches it, and the customer reads that it is not available.
    const off = await turn(owner, false);
    expect(off.data).toMatchObject({ enabled: false, callback_url: null });
    const dial = session(key, '+254712000111');
    expect((await dial('')).text).toBe('END Sorry, this service is not available now.');
    // On again keeps the address; a new one replaces it, and the old one is no menu's.
    expect((await turn(owner, true)).data.callback_url).toBe(on.data.callback_url);
    const rotated = ZUssdSettingsReplySchema.parse((await t.http.post('/payg/settings/ussd/rotate').set(owner.auth).expect(200)).body);
    expect(rotated.data.callback_url).not.toBe(on.data.callback_url);
    const gone = await t.http.post(`/payg/external/ussd/${key}`).type('form').send({ sessionId: 's1', phoneNumber: '+254712000111', text: '' }).expect(404);
    expect(gone.body.detail).toBe('No USSD menu has this address');
    const actions = await t.db.platform.auditLog.findMany({ where: { organization_id: org.id, action: { startsWith: 'ussd.' } }, orderBy: { id: 'asc' } });
    expect(actions.map((a) => a.action)).toEqual(['ussd.enabled', 'ussd.disabled', 'ussd.enabled', 'ussd.address_replaced']);
  });

  it("shows a customer's balance and last code, texts the code once, and opens one ticket for a problem", async () => {
    const roles = await ready();
    const { org, owner, customer, item, key } = roles;
    const dial = session(key, '+254712345678');
    const first = await dial('');
    expect(first.text).toBe('CON Jua Power: Hi Amina\n1. My balance\n2. My last code\n3. Report a problem');
    expect((await dial('9')).text).toBe('CON Invalid choice.\nJua Power: Hi Amina\n1. My balance\n2. My last code\n3. Report a problem');
    const balance = (await dial('9*1')).text;
    expect(balance).toMatch(new RegExp(`^END ${item.serial_number}: credit until \\d{1,2} [A-Z][a-z]{2}, KES 9,750.00 left to pay\\.$`));

    // The last code, shown and texted, once, however often the gateway posts the step.
    const again = session(key, '254712345678');
    const code = (await again('2')).text;
    const [last] = await t.db.db.tokenLog.findMany({ where: { organization_id: org.id, item_id: item.id }, orderBy: { id: 'desc' }, take: 1 });
    expect(code).toContain(`END ${item.serial_number} last code: `);
    expect(code).toContain('3 days).\nWe sent it by SMS too.');
    expect(code.replace(/\s/g, '')).toContain(last!.token_value);
    expect((await again('2')).text).toBe(code);
    // Posted twice at the same moment (a gateway's retry racing the first): one text still.
    const racing = session(key, '254712345678');
    const [a, b] = await Promise.all([racing('2'), racing('2')]);
    expect(a.text).toBe(code);
    expect(b.text).toBe(code);
    const texts = await t.db.db.message.findMany({ where: { organization_id: org.id, sent_by: 'USSD' }, orderBy: { id: 'asc' } });
    expect(texts).toHaveLength(2);
    expect(texts[0]).toMatchObject({ recipient_number: '254712345678', delivery_status: 'queued', item_id: item.id });
    expect(texts[0]!.forwarded_message).toBe(`Kidogo: ${code.slice(4).split('\n')[0]}`);

    // A problem: one device, so straight to what is wrong; 0 goes back.
    const report = session(key, '0712345678');
    expect((await report('3')).text).toBe(`CON What is wrong with ${item.serial_number}?\n1. Device not working\n2. Code not accepted\n3. Payment question\n4. Other\n0. Back`);
    expect((await report('3*0')).text).toMatch(/^CON Jua Power: Hi Amina\n/);
    const opened = (await report('3*0*3*1')).text;
    const ticket = await t.db.db.serviceTicket.findFirstOrThrow({ where: { organization_id: org.id, item_id: item.id } });
    expect(opened).toBe(`END Thank you. Ticket #${ticket.id} is open for ${item.serial_number}: we will call you.`);
    expect(ticket).toMatchObject({ category: 'device_fault', status: 'open', customer_id: customer.id, opened_by: null, description: 'Reported by the customer by USSD from 254712345678: Device fault' });
    const audit = await t.db.platform.auditLog.findFirstOrThrow({ where: { organization_id: org.id, action: 'ticket.opened' } });
    expect(audit).toMatchObject({ actor_user_id: null, description: `Ticket #${ticket.id} opened for device ${item.serial_number} by the customer by USSD: Device fault` });
    // Nobody opened it or was given it: the owners and admins are told (never the customer's name), staff not.
    const { admin, staff } = roles;
    const told = await t.db.db.userNotification.findMany({ where: { organization_id: org.id, kind: 'ticket_reported' } });
    expect(told.map((n) => n.user_id).sort()).toEqual([owner.user_id, admin.user_id].sort());
    expect(told[0]).toMatchObject({ ticket_id: ticket.id, actor_username: null, message: `The customer of ${item.serial_number} reported a problem by USSD: Device fault (ticket #${ticket.id})` });
    expect(told.some((n) => n.user_id === staff.user_id)).toBe(false);
    // Dialled again: the same ticket, not another.
    expect((await session(key, '0712345678')('3*1')).text).toBe(`END We already have your report on ${item.serial_number} (ticket #${ticket.id}): we will call you.`);
    expect(await t.db.db.serviceTicket.count({ where: { organization_id: org.id } })).toBe(1);
    expect(await t.db.db.userNotification.count({ where: { organization_id: org.id, kind: 'ticket_reported' } })).toBe(2);
    // The same last step posted twice at once: one ticket; the request that did not open it says the report was received.
    const twice = session(key, '0712345678');
    const both = (await Promise.all([twice('3*4'), twice('3*4')])).map((r) => r.text).sort();
    const other = await t.db.db.serviceTicket.findFirstOrThrow({ where: { organization_id: org.id, category: 'other' } });
    const opened2 = `END Thank you. Ticket #${other.id} is open for ${item.serial_number}: we will call you.`;
    // (Had one finished before the other read the session, both would be the first's screen.)
    expect(both).toContain(opened2);
    expect([opened2, `END Thank you. We have your report on ${item.serial_number}: we will call you.`]).toEqual(expect.arrayContaining(both));
    expect(await t.db.db.serviceTicket.count({ where: { organization_id: org.id } })).toBe(2);

    // Each session kept, newest first, with the customer the phone named.
    const list = ZUssdSessionsReplySchema.parse((await t.http.get('/payg/settings/ussd/sessions').set(owner.auth).expect(200)).body);
    expect(list.data.map((s) => [s.outcome, s.steps, s.customer_name])).toEqual([
      ['ticket', 2, 'Amina Wanjiru'],
      ['ticket', 2, 'Amina Wanjiru'],
      ['ticket', 4, 'Amina Wanjiru'],
      ['code', 1, 'Amina Wanjiru'],
      ['code', 1, 'Amina Wanjiru'],
      ['balance', 2, 'Amina Wanjiru'],
    ]);
    expect(list.data[2]!.detail).toBe(`Ticket #${ticket.id}: ${item.serial_number}, Device fault`);
    expect(list.data[0]).toMatchObject({ service_code: '*384*123#', customer_id: customer.id, phone_number: '0712345678' });
    const firstPage = ZUssdSessionsReplySchema.parse((await t.http.get('/payg/settings/ussd/sessions').query({ limit: 3 }).set(owner.auth).expect(200)).body);
    expect(firstPage.data).toHaveLength(3);
    const older = ZUssdSessionsReplySchema.parse(
      (await t.http.get('/payg/settings/ussd/sessions').query({ limit: 3, before: firstPage.next_before }).set(owner.auth).expect(200)).body,
    );
    expect(older).toEqual({ data: list.data.slice(3), next_before: null });
    expect(await settings(owner)).toMatchObject({ sessions_7d: 6, customers_7d: 1, service_code: '*384*123#' });
    // The customer's page lists theirs, for any user who answers their calls; another organization's customer is a 404.
    const { staff: clerk } = roles;
    const theirs = ZUssdSessionsReplySchema.parse((await t.http.get(`/payg/customers/${customer.id}/ussd-sessions`).set(clerk.auth).expect(200)).body);
    expect(theirs.data).toEqual(list.data);
    const elsewhere = await seedRoles(t);
    await t.http.get(`/payg/customers/${customer.id}/ussd-sessions`).set(elsewhere.owner.auth).expect(404);
  });

  it('asks the customer their ID number on a shared phone, and tells a phone on no account so', async () => {
    const { org, key } = await ready();
    const nobody = session(key, '+254799000111');
    expect((await nobody('')).text).toBe('END Jua Power: this phone number is on no account. Call us to register it.');
    const a = await seedCustomer(t, org.id, { phone_contact: '0722 111 222', customer_name: 'Baraka Otieno', id_number: '30111222' });
    await seedCustomer(t, org.id, { phone_contact: '+254722111222', customer_name: 'Neema Otieno', id_number: '30333444' });
    // A customer whose record names Kiswahili reads the menu in it.
    const neema = await seedCustomer(t, org.id, { phone_contact: '0733 555 666', customer_name: 'Neema Salim' });
    await t.db.db.customer.update({ where: { organization_id_id: { organization_id: org.id, id: neema.id } }, data: { preferred_language: 'Swahili' } });
    expect((await session(key, '+254733555666')('')).text).toBe('CON Jua Power: Habari Neema\n1. Salio langu\n2. Namba yangu ya mwisho\n3. Ripoti tatizo');
    const shared = session(key, '+254722111222');
    expect((await shared('')).text).toBe('CON Jua Power\nThis phone is on more than one account. Enter your ID number:');
    expect((await shared('123')).text).toBe('CON That ID number is not on an account with this phone. Enter your ID number:');
    expect((await shared('123*30111222')).text).toBe('CON Jua Power: Hi Baraka\n1. My balance\n2. My last code\n3. Report a problem');
    expect((await shared('123*30111222*1')).text).toBe('END No device is on your account.');
    const kept = ZUssdSessionsReplySchema.parse((await t.http.get('/payg/settings/ussd/sessions').query({ limit: 1 }).set((await seedRolesOf(org.id)).auth).expect(200)).body);
    expect(kept.data[0]).toMatchObject({ customer_id: a.id, outcome: 'balance' });
    const guessing = session(key, '+254722111222');
    expect((await guessing('1*2*3')).text).toBe('END We could not find your account. Please call us.');

    // Their sessions are theirs: in the copy of their personal data, and gone when it is erased.
    const owner = await seedRolesOf(org.id);
    const data = (await t.http.get(`/payg/customers/${a.id}/personal-data`).set(owner.auth).expect(200)).body as { ussd_sessions: unknown[] };
    expect(data.ussd_sessions).toEqual([
      { started_at: expect.any(String), phone_number: '+254722111222', steps: 3, outcome: 'balance', detail: null },
    ]);
    const erased = await t.http.post(`/payg/customers/${a.id}/erase`).set(owner.auth).send({ reason: 'Asked by the customer' }).expect(200);
    expect(erased.body.erased).toMatchObject({ ussd_sessions: 1 });
    expect(await t.db.db.ussdSession.count({ where: { organization_id: org.id, customer_id: a.id } })).toBe(0);
  });

  /** Another owner of an organization already seeded. */
  const seedRolesOf = (orgId: string) => seedUser(t, { organization_id: orgId, role: 'owner' });

  it("asks the customer's phone to pay by M-Pesa, and says why when it cannot", async () => {
    const { org, item, key } = await ready({ mpesa: true });
    const dial = session(key, '+254712345678');
    expect((await dial('')).text).toBe('CON Jua Power: Hi Amina\n1. My balance\n2. My last code\n3. Pay now\n4. Report a problem');
    expect((await dial('3')).text).toBe(`CON ${item.serial_number}: KES 50 a day, KES 9,750 left to pay.\nEnter the amount (KES):\n0. Back`);
    expect((await dial('3*abc')).text).toBe(`CON ${item.serial_number}: KES 50 a day, KES 9,750 left to pay.\nEnter a whole amount from 1 to 250,000.\nEnter the amount (KES):\n0. Back`);
    const pushes = daraja.pushes.length;
    expect((await dial('3*abc*350')).text).toBe(`END Check your phone: enter your M-Pesa Express PIN to pay KES 350 for ${item.serial_number}. Your code comes by SMS.`);
    expect(daraja.pushes).toHaveLength(pushes + 1);
    expect(daraja.pushes[pushes]!.body).toMatchObject({ PhoneNumber: '254712345678', Amount: 350 });
    // Posted again by the gateway: the same answer, and Safaricom is not asked twice.
    await dial('3*abc*350');
    expect(daraja.pushes).toHaveLength(pushes + 1);
    const request = await t.db.db.paymentRequest.findFirstOrThrow({ where: { organization_id: org.id } });
    expect(request).toMatchObject({ requested_by: null, from_customer_page: true });
    const audit = await t.db.platform.auditLog.findFirstOrThrow({ where: { organization_id: org.id, action: 'payment_request.sent' } });
    expect(audit.description).toBe(`Amina Wanjiru asked by USSD for 254712345678 to pay KES 350 for ${item.serial_number} by M-Pesa Express`);

    // While that one waits, another is refused, and the customer is told why.
    const second = await session(key, '+254712345678')('3*200');
    expect(second.text).toMatch(new RegExp(`^END Sorry, the payment could not be asked for: A payment request for ${item.serial_number} sent at \\d{2}:\\d{2} is still waiting`));
    expect(daraja.pushes).toHaveLength(pushes + 1);
    const [kept] = ZUssdSessionsReplySchema.parse((await t.http.get('/payg/settings/ussd/sessions').query({ limit: 1 }).set((await seedRolesOf(org.id)).auth).expect(200)).body).data;
    expect(kept).toMatchObject({ outcome: 'pay_refused' });
  });

  it('tries the menu for an owner without sending, asking or opening anything', async () => {
    const { org, owner, staff, item } = await ready({ mpesa: true });
    await turn(owner, false);
    const tryIt = (body: object) => t.http.post('/payg/settings/ussd/try').set(owner.auth).send(body);
    const first = ZUssdTryReplySchema.parse((await tryIt({ phone_number: '0712 345 678', text: '' }).expect(200)).body);
    expect(first).toEqual({ screen: 'Jua Power: Hi Amina\n1. My balance\n2. My last code\n3. Pay now\n4. Report a problem', end: false, outcome: 'menu', would: null });
    const pay = ZUssdTryReplySchema.parse((await tryIt({ phone_number: '0712345678', text: '3*500' }).expect(200)).body);
    expect(pay).toMatchObject({ end: true, outcome: 'pay', would: `Ask 254712345678 to pay KES 500 for ${item.serial_number} by M-Pesa Express` });
    const ticket = ZUssdTryReplySchema.parse((await tryIt({ phone_number: '0712345678', text: '4*2' }).expect(200)).body);
    expect(ticket.screen).toBe(`Thank you. Ticket #(new) is open for ${item.serial_number}: we will call you.`);
    const code = ZUssdTryReplySchema.parse((await tryIt({ phone_number: '0712345678', text: '2' }).expect(200)).body);
    expect(code.would).toMatch(/^Text 254712345678: "Kidogo: /);
    expect(await t.db.db.serviceTicket.count({ where: { organization_id: org.id } })).toBe(0);
    expect(await t.db.db.paymentRequest.count({ where: { organization_id: org.id } })).toBe(0);
    expect(await t.db.db.message.count({ where: { organization_id: org.id, sent_by: 'USSD' } })).toBe(0);
    expect(await t.db.db.ussdSession.count({ where: { organization_id: org.id } })).toBe(0);
    const bad = await tryIt({ text: '' }).expect(400);
    expect(bad.body.errors).toEqual([{ field: 'phone_number', message: 'is required' }]);
    await t.http.post('/payg/settings/ussd/try').set(staff.auth).send({ phone_number: '0712345678' }).expect(403);
  });

  it('refuses a step without its fields, naming them, and stores nothing', async () => {
    const { org, key } = await ready();
    const bad = await t.http.post(`/payg/external/ussd/${key}`).type('form').send({ phoneNumber: '+254712345678', text: '' }).expect(400);
    expect(bad.body.errors).toEqual([{ field: 'sessionId', message: 'is required' }]);
    const long = await t.http.post(`/payg/external/ussd/${key}`).send({ sessionId: 'x', phoneNumber: '+254712345678', text: '1'.repeat(501) }).expect(400);
    expect(long.body.errors).toEqual([{ field: 'text', message: 'must be at most 500 characters' }]);
    expect(await t.db.db.ussdSession.count({ where: { organization_id: org.id } })).toBe(0);
  });
});
