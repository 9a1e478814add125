import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  ERASED_CUSTOMER_NAME,
  ZCustomerListReplySchema,
  ZEraseCustomerReplySchema,
  ZPersonalDataExportSchema,
  ZReceiveReplySchema,
  ZWebhookWithSecretSchema,
} from '@kidogo/contracts';
import { createTestApp, type TestApp } from './support/test-app.js';
import { mpesaCode, mpesaPaybillSms, seedApiKey, seedCustomer, seedCustomerWithDevice, seedTenant, seedUser, type SeededUser } from './support/factories.js';

// A customer's personal data (README "Personal data"): a copy of everything
// held about them, and its erasure once they owe nothing, keeping the books.

describe("a customer's personal data", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
  });
  afterAll(() => t.close());

  const exportOf = (user: SeededUser, id: number) => t.http.get(`/payg/customers/${id}/personal-data`).set(user.auth);
  const erase = (user: SeededUser, id: number, body: object = { reason: 'The customer asked in writing' }) =>
    t.http.post(`/payg/customers/${id}/erase`).set(user.auth).send(body);

  /** A customer who paid by M-Pesa for their device, texted BAL, and was called about it, with a webhook endpoint told of it all. */
  async function customerWithHistory() {
    const { user, org } = await seedTenant(t);
    const key = await seedApiKey(t, user);
    const hook = ZWebhookWithSecretSchema.parse(
      (await t.http.post('/payg/webhooks').set(user.auth).send({ url: 'http://127.0.0.1:9/hook', events: ['payment.applied', 'customer.updated', 'customer.erased'] }).expect(201)).body,
    );
    const { customer, item } = await seedCustomerWithDevice(t, org.id, { template: { daily_price: '20.00' } });
    await t.db.db.customer.update({
      where: { organization_id_id: { organization_id: org.id, id: customer.id } },
      data: { customer_name: 'Grace Wanjiku', phone_contact: '0722111333', phone_normalized: '254722111333', email: 'grace@mail.test', village: 'Kiambaa' },
    });
    const code = mpesaCode('G');
    const sms = mpesaPaybillSms({ code, amount: '60.00', account: item.serial_number, phone: '254722111333', name: 'GRACE WANJIKU' });
    const paid = ZReceiveReplySchema.parse((await t.http.post('/payg/external/receive-phoneteletalk').set(key).send({ message: sms }).expect(200)).body);
    expect(paid).toMatchObject({ status: 'processed', serial_number: item.serial_number });
    await t.http.post('/payg/external/receive-phoneteletalk').set(key).send({ message: 'BAL', sender: '+254722111333' }).expect(200);
    await t.db.db.collectionContact.create({
      data: { organization_id: org.id, item_id: item.id, customer_id: customer.id, user_id: user.user_id, outcome: 'promised_to_pay', note: 'Grace says her husband pays on Friday' },
    });
    await t.http
      .post('/payg/tickets')
      .set(user.auth)
      .send({ serial_number: item.serial_number, category: 'device_fault', description: 'Grace Wanjiku (0722111333): the lamp flickers' })
      .expect(201);
    await t.http.put(`/payg/customers/${customer.id}`).set(user.auth).send({ occupation: 'Teacher' }).expect(200);
    await t.http.post(`/payg/customers/${customer.id}/sms-opt-out`).set(user.auth).expect(200);
    // Delivered already, as the worker would have done.
    await t.db.pool.query(`UPDATE webhook_deliveries SET status = 'delivered', delivered_at = now() WHERE organization_id = $1`, [org.id]);
    return { user, org, key, hook, customer, item, code, payment_id: paid.payment_id! };
  }

  it('hands an owner or admin everything held about the customer, as a JSON file; not staff, not another organization', async () => {
    const { user, org, customer, item, code } = await customerWithHistory();
    const res = await exportOf(user, customer.id).expect(200);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="customer-${customer.id}-personal-data.json"`);
    const data = ZPersonalDataExportSchema.parse(res.body);
    expect(data).toMatchObject({ kind: 'kidogo.personal-data', version: 1, generated_by: user.username, organization: { organization_id: org.id } });
    expect(data.customer).toMatchObject({ customer_id: customer.id, customer_name: 'Grace Wanjiku', email: 'grace@mail.test', village: 'Kiambaa', occupation: 'Teacher' });
    expect(data.devices).toEqual([expect.objectContaining({ serial_number: item.serial_number, current: true, unassigned_at: null })]);
    expect(data.payment_plans).toHaveLength(1);
    expect(data.payments).toEqual([
      expect.objectContaining({ transaction_code: code, amount: '60.00', payer_name: 'GRACE WANJIKU', payer_phone: expect.stringContaining('722111333'), serial_number: item.serial_number }),
    ]);
    expect(data.tokens.length).toBeGreaterThan(0);
    expect(data.tokens.every((tk) => tk.serial_number === item.serial_number && /^\d{9,}$/.test(tk.token))).toBe(true);
    // The payment's text with its reply, and the BAL text from their phone with its answer.
    expect(data.messages.some((m) => m.incoming?.includes(code) && m.outgoing)).toBe(true);
    expect(data.messages.some((m) => m.incoming === 'BAL' && m.outgoing)).toBe(true);
    expect(data.collection_contacts).toEqual([expect.objectContaining({ outcome: 'promised_to_pay', note: 'Grace says her husband pays on Friday' })]);
    expect(data.service_tickets).toEqual([
      expect.objectContaining({ serial_number: item.serial_number, category: 'device_fault', status: 'open', description: 'Grace Wanjiku (0722111333): the lamp flickers' }),
    ]);
    expect(data.activity.map((a) => a.action)).toEqual(['ticket.opened', 'customer.sms_opted_out']);
    expect(data.activity[1]!.description).toContain('Grace Wanjiku');

    const audit = await t.db.platform.auditLog.findFirst({ where: { organization_id: org.id, action: 'customer.data_exported' } });
    expect(audit).toMatchObject({ entity_type: 'customer', entity_id: String(customer.id), actor_username: user.username });

    const admin = await seedUser(t, { organization_id: org.id, role: 'admin' });
    await exportOf(admin, customer.id).expect(200);
    const staff = await seedUser(t, { organization_id: org.id, role: 'staff' });
    await exportOf(staff, customer.id).expect(403);
    await erase(staff, customer.id).expect(403);
    const other = await seedTenant(t);
    await exportOf(other.user, customer.id).expect(404);
    await erase(other.user, customer.id).expect(404);
    await exportOf(user, 999_999_999).expect(404);
    expect((await exportOf(user, 0).expect(400)).body.errors[0].field).toBe('id');
  });

  it('refuses to erase a customer who still pays for a device, and asks for a reason', async () => {
    const { user, customer, item } = await customerWithHistory();
    const refused = await erase(user, customer.id).expect(409);
    expect(refused.body.detail).toBe(`Grace Wanjiku still pays for device ${item.serial_number}: take it back (Unassign or Repossess) or wait until it is paid off, then erase`);
    for (const [body, message] of [
      [{}, 'is required'],
      [{ reason: ' x ' }, 'must say why, in at least 3 characters'],
      [{ reason: 'y'.repeat(201) }, 'must be at most 200 characters'],
    ] as const) {
      expect((await erase(user, customer.id, body).expect(400)).body.errors).toEqual([{ field: 'reason', message }]);
    }
    const row = await t.db.db.customer.findUniqueOrThrow({ where: { organization_id_id: { organization_id: customer.organization_id, id: customer.id } } });
    expect(row).toMatchObject({ customer_name: 'Grace Wanjiku', status: 'active', email: 'grace@mail.test' });
  });

  it('erases what identifies them once they owe nothing, keeping payments, codes and revenue, and tells the webhooks', async () => {
    const { user, org, customer, item, code, payment_id } = await customerWithHistory();
    const revenue = async () => (await t.http.get('/payg/metrics/summary').set(user.auth).expect(200)).body.total_revenue as string;
    const before = await revenue();
    // Paid off: the device is theirs for good.
    await t.db.db.item.update({ where: { organization_id_id: { organization_id: org.id, id: item.id } }, data: { paid_off_at: new Date() } });
    // What staff typed about her elsewhere: a payment's reference, a repossession of an earlier device.
    await t.db.pool.query(`UPDATE payments SET reference = 'Receipt 4411 for Grace Wanjiku (0722111333)' WHERE organization_id = $1 AND payment_id = $2`, [org.id, payment_id]);
    await t.db.pool.query(
      `INSERT INTO repossessions (organization_id, item_id, customer_id, reason, total_paid, status) VALUES ($1, $2, $3, 'Grace Wanjiku moved to Nakuru', 0, 'available')`,
      [org.id, item.id, customer.id],
    );
    await t.db.pool.query(
      `INSERT INTO device_discounts (organization_id, item_id, customer_id, amount, reason, remaining_before, remaining_after)
       VALUES ($1, $2, $3, 100, 'Grace Wanjiku pays off early', 100, 0)`,
      [org.id, item.id, customer.id],
    );

    const reply = ZEraseCustomerReplySchema.parse((await erase(user, customer.id, { reason: '  Asked in writing on 12 Nov  ' }).expect(200)).body);
    expect(reply.message).toBe(`The personal data of customer ${customer.id} was erased`);
    expect(reply.customer).toMatchObject({
      customer_id: customer.id,
      customer_name: ERASED_CUSTOMER_NAME,
      id_number: `ERASED-${customer.id}`,
      phone_contact: '',
      email: null,
      village: null,
      occupation: null,
      status: 'erased',
    });
    expect(reply.erased).toMatchObject({ payments: 1, collection_contacts: 1, service_tickets: 1, webhook_deliveries: 3 });
    expect(reply.erased.messages).toBeGreaterThanOrEqual(2);
    expect(reply.erased.tokens).toBeGreaterThan(0);
    expect(reply.erased.activity_entries).toBeGreaterThan(0);

    // The books are the same; the person is gone from them.
    expect(await revenue()).toBe(before);
    const payment = await t.db.db.payment.findUniqueOrThrow({ where: { organization_id_id: { organization_id: org.id, id: payment_id } } });
    expect(payment).toMatchObject({ transaction_code: code, status: 'completed', customer_id: customer.id, payer_name: null, payer_phone: null });
    expect(payment.reference).toBe(`Receipt 4411 for ${ERASED_CUSTOMER_NAME} (${ERASED_CUSTOMER_NAME})`);
    expect(payment.amount.toFixed(2)).toBe('60.00');
    const device = await t.db.db.item.findUniqueOrThrow({ where: { organization_id_id: { organization_id: org.id, id: item.id } } });
    expect(device.customer_id).toBe(customer.id);
    const { rows: texts } = await t.db.pool.query(
      `SELECT received_message, forwarded_message, raw_payload, sender, recipient_number FROM messages WHERE organization_id = $1 ORDER BY message_id`,
      [org.id],
    );
    expect(texts.length).toBeGreaterThanOrEqual(2);
    for (const m of texts) expect(m).toMatchObject({ raw_payload: null, sender: null, recipient_number: null, received_message: '[erased]' });

    // Nothing anywhere in the organization's records still names them.
    const { rows: dump } = await t.db.pool.query(
      `SELECT (SELECT json_agg(c) FROM customers c WHERE organization_id = $1)::text || (SELECT json_agg(p) FROM payments p WHERE organization_id = $1)::text ||
              (SELECT json_agg(k) FROM token_logs k WHERE organization_id = $1)::text || (SELECT json_agg(m) FROM messages m WHERE organization_id = $1)::text ||
              (SELECT json_agg(a) FROM audit_logs a WHERE organization_id = $1)::text || (SELECT json_agg(x) FROM collection_contacts x WHERE organization_id = $1)::text ||
              (SELECT json_agg(r) FROM repossessions r WHERE organization_id = $1)::text || (SELECT json_agg(s) FROM service_tickets s WHERE organization_id = $1)::text ||
              (SELECT json_agg(g) FROM device_discounts g WHERE organization_id = $1)::text ||
              coalesce((SELECT json_agg(d.payload) FROM webhook_deliveries d WHERE organization_id = $1 AND status <> 'pending')::text, '') AS text`,
      [org.id],
    );
    for (const trace of ['Grace', 'GRACE', 'Wanjiku', '722111333', 'grace@mail.test', 'Kiambaa', customer.id_number, 'husband']) expect(dump[0].text).not.toContain(trace);

    const found = ZCustomerListReplySchema.parse((await t.http.get('/payg/registered-customers').query({ search_term: 'Wanjiku' }).set(user.auth).expect(200)).body);
    expect(found.data).toEqual([]);
    const byPhone = await t.http.post('/payg/fetch-customer').set(user.auth).send({ phone_contact: '0722111333' });
    expect(byPhone.status).toBe(404);

    // The webhooks are told, and the erasure is audited with its reason and no name.
    const { rows: events } = await t.db.pool.query(`SELECT payload FROM webhook_deliveries WHERE organization_id = $1 AND event_type = 'customer.erased'`, [org.id]);
    expect(events.map((e) => e.payload.data)).toEqual([{ customer_id: customer.id, erased_by: user.username, erased_at: reply.customer.updated_at }]);
    const audit = await t.db.platform.auditLog.findFirstOrThrow({ where: { organization_id: org.id, action: 'customer.erased' } });
    expect(audit.description).toBe(`${user.username} erased the personal data of customer ${customer.id}: Asked in writing on 12 Nov`);
    expect(audit.metadata).toMatchObject({ reason: 'Asked in writing on 12 Nov', payments: 1 });

    // Once is enough; an erased customer is not edited or given a device or plan again; what is left can still be seen.
    expect((await erase(user, customer.id).expect(409)).body.detail).toBe("This customer's personal data was already erased");
    const erasedMessage = "This customer's personal data was erased: if they come back, register them again as a new customer";
    expect((await t.http.put(`/payg/customers/${customer.id}`).set(user.auth).send({ customer_name: 'Grace W' }).expect(409)).body.detail).toBe(erasedMessage);
    const { item: spare } = await seedCustomerWithDevice(t, org.id);
    await t.db.db.item.update({ where: { organization_id_id: { organization_id: org.id, id: spare.id } }, data: { customer_id: null, is_assigned: false, status: 'available' } });
    expect((await t.http.post('/payg/items/assign').set(user.auth).send({ customer_id: customer.id, item_serial_number: spare.serial_number }).expect(409)).body.detail).toBe(erasedMessage);
    const left = ZPersonalDataExportSchema.parse((await exportOf(user, customer.id).expect(200)).body);
    expect(left.customer.status).toBe('erased');
    expect(left.payments).toEqual([expect.objectContaining({ transaction_code: code, payer_name: null })]);
    // The discount stays in the books, its reason without her name.
    expect(left.discounts).toEqual([expect.objectContaining({ amount: '100.00', reason: `${ERASED_CUSTOMER_NAME} pays off early` })]);
    expect(JSON.stringify(left)).not.toMatch(/Grace|Wanjiku|722111333/);
  });

  it("neither hands over nor touches another customer's payment made from the same phone, but takes in a held one", async () => {
    const { user, org, key, customer, item } = await customerWithHistory();
    // Her brother pays for his own device from her phone; another payment from her phone matches no device and is held.
    const brother = await seedCustomerWithDevice(t, org.id, { template: { daily_price: '20.00' } });
    const his = mpesaCode('B');
    await t.http.post('/payg/external/receive-phoneteletalk').set(key)
      .send({ message: mpesaPaybillSms({ code: his, amount: '40.00', account: brother.item.serial_number, phone: '254722111333', name: 'GRACE WANJIKU' }) }).expect(200);
    const held = mpesaCode('H');
    await t.http.post('/payg/external/receive-phoneteletalk').set(key)
      .send({ message: mpesaPaybillSms({ code: held, amount: '30.00', account: 'NO-SUCH-DEVICE', phone: '254722111333', name: 'GRACE WANJIKU' }) }).expect(200);

    const data = ZPersonalDataExportSchema.parse((await exportOf(user, customer.id).expect(200)).body);
    expect(data.payments.map((p) => p.transaction_code).sort()).toEqual([held, expect.any(String)].sort());
    expect(data.payments.map((p) => p.transaction_code)).not.toContain(his);
    expect(JSON.stringify(data.messages)).not.toContain(his);

    await t.db.db.item.update({ where: { organization_id_id: { organization_id: org.id, id: item.id } }, data: { paid_off_at: new Date() } });
    expect(ZEraseCustomerReplySchema.parse((await erase(user, customer.id).expect(200)).body).erased.payments).toBe(2);
    const byCode = async (code: string) => t.db.db.payment.findFirstOrThrow({ where: { organization_id: org.id, transaction_code: code } });
    expect(await byCode(his)).toMatchObject({ customer_id: brother.customer.id, payer_name: 'GRACE WANJIKU', payer_phone: expect.stringContaining('722111333') });
    expect(await byCode(held)).toMatchObject({ customer_id: null, payer_name: null, payer_phone: null });
    const { rows } = await t.db.pool.query(`SELECT received_message FROM messages WHERE organization_id = $1 AND transaction_code = $2`, [org.id, his]);
    expect(rows[0].received_message).toContain(his);
  });

  it('erases a customer who never had a device, and one whose device was taken back', async () => {
    const { user, org } = await seedTenant(t);
    const plain = await seedCustomer(t, org.id, { customer_name: 'Juma Otieno' });
    const r = ZEraseCustomerReplySchema.parse((await erase(user, plain.id).expect(200)).body);
    expect(r.erased).toEqual({ payments: 0, tokens: 0, messages: 0, collection_contacts: 0, service_tickets: 0, payment_requests: 0, payment_plans: 0, activity_entries: 0, webhook_deliveries: 0, documents: 0, ussd_sessions: 0 });

    const { customer, item } = await seedCustomerWithDevice(t, org.id);
    await t.http.post('/payg/items/unassign').set(user.auth).send({ item_serial_number: item.serial_number }).expect(200);
    ZEraseCustomerReplySchema.parse((await erase(user, customer.id).expect(200)).body);
  });
});
