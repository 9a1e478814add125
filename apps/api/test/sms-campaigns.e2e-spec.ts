import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  CAMPAIGN_SMS_PLACEHOLDERS,
  MAX_CAMPAIGN_RECIPIENTS,
  ZCampaignCancelReplySchema,
  ZCampaignReplySchema,
  ZCampaignSchema,
  ZCampaignsReplySchema,
  ZCampaignTextsReplySchema,
} from '@kidogo/contracts';
import { OutboxService } from '../src/outbox/outbox.service.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { seedApiKey, seedCustomer, seedCustomerWithDevice, seedTenant, seedUser, type SeededUser } from './support/factories.js';
import { WITHDRAWN_FOR_STOP } from '../src/sms-campaigns/campaign-texts.js';

// Bulk SMS (README "Bulk SMS"): one text to a group of customers, now or at a
// time set ahead, one per phone number, passing over customers who texted
// STOP; sent by the outbox after the payment replies due; cancellable.

const DAY = 86_400_000;

describe('bulk SMS', () => {
  let t: TestApp;
  let server: Server;
  let sent: { to: string; message: string }[] = [];
  let base: string;

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        sent.push(JSON.parse(body) as { to: string; message: string });
        res.writeHead(202, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ id: `p-${sent.length}` }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
    await new Promise<void>((r) => server.close(() => r()));
  });
  beforeEach(() => {
    sent = [];
  });

  const withSms = (owner: SeededUser) =>
    t.http.put('/payg/settings/sms-provider').set(owner.auth).send({ provider: 'sms_webhook', config: { url: `${base}/sms` } }).expect(200);
  const post = (user: SeededUser, body: object) => t.http.post('/payg/sms-campaigns').set(user.auth).send(body);
  const counts = async (orgId: string) => ({
    campaigns: await t.db.db.smsCampaign.count({ where: { organization_id: orgId } }),
    messages: await t.db.db.message.count({ where: { organization_id: orgId } }),
  });

  /**
   * Nakuru: Amina (on track) and Baraka (far behind, agent AG-1) with a lamp and a solar home system; Daudi, who texted
   * STOP; Esther without a phone; Faith on Amina's phone. Kisumu: Chebet, without a device.
   */
  async function portfolio() {
    const { org, user } = await seedTenant(t);
    const plan = { daily_price: '40.00', free_code_price: '10000.00' };
    const mk = async (name: string, phone: string, paid: string, opts: { product?: string; agent?: string } = {}) => {
      const d = await seedCustomerWithDevice(t, org.id, {
        template: plan,
        customer: { customer_name: name, phone_contact: phone, county: 'Nakuru' },
        item: { product_name: opts.product ?? 'Sun Lamp' },
      });
      await t.db.db.item.update({
        where: { organization_id_id: { organization_id: org.id, id: d.item.id } },
        data: { assigned_at: new Date(Date.now() - 30 * DAY - 3_600_000), total_paid: paid },
      });
      if (opts.agent) {
        await t.db.db.customer.update({ where: { organization_id_id: { organization_id: org.id, id: d.customer.id } }, data: { agent_id: opts.agent } });
      }
      return d.customer;
    };
    const amina = await mk('Amina Otieno', '0711000001', '1200.00');
    const baraka = await mk('Baraka Mwangi', '0711000002', '0', { product: 'Solar Home 60', agent: 'AG-1' });
    const daudi = await mk('Daudi Kamau', '0711000004', '1200.00');
    await t.db.db.customer.update({
      where: { organization_id_id: { organization_id: org.id, id: daudi.id } },
      data: { sms_opted_out_at: new Date(), sms_opt_out_source: 'sms' },
    });
    const esther = await mk('Esther Njeri', '', '1200.00');
    await t.db.db.customer.update({ where: { organization_id_id: { organization_id: org.id, id: esther.id } }, data: { phone_normalized: null } });
    await mk('Faith Otieno', '0711000001', '1200.00');
    const chebet = await seedCustomer(t, org.id, { customer_name: 'Chebet Kip', phone_contact: '0711000003', county: 'Kisumu' });
    return { org, user, amina, baraka, chebet };
  }

  it('previews a group, then queues one text per phone number, filled in, and the outbox sends it', async () => {
    const p = await portfolio();
    await withSms(p.user);
    const text = 'Habari {name}: our Nakuru shop moves to Kenyatta Avenue on Monday. Karibu, {full_name}!';
    const preview = ZCampaignReplySchema.parse((await post(p.user, { audience: { customers: 'with_device', county: 'nakuru' }, text, dry_run: true }).expect(200)).body);
    expect(preview).toEqual({
      message: 'Would send 2 SMS to Customers with a device, of nakuru county',
      dry_run: true,
      audience_text: 'Customers with a device, of nakuru county',
      recipients: 2,
      skipped_no_phone: 1,
      skipped_opted_out: 1,
      skipped_same_phone: 1,
      parts: 2,
      sample: [
        {
          customer_id: p.amina.id,
          customer_name: 'Amina Otieno',
          recipient_number: '254711000001',
          text: 'Habari Amina: our Nakuru shop moves to Kenyatta Avenue on Monday. Karibu, Amina Otieno!',
          parts: 1,
        },
        {
          customer_id: p.baraka.id,
          customer_name: 'Baraka Mwangi',
          recipient_number: '254711000002',
          text: 'Habari Baraka: our Nakuru shop moves to Kenyatta Avenue on Monday. Karibu, Baraka Mwangi!',
          parts: 1,
        },
      ],
      campaign: null,
    });
    expect(await counts(p.org.id)).toEqual({ campaigns: 0, messages: 0 });

    // Each filter narrows the group.
    const who = async (audience: object) =>
      ZCampaignReplySchema.parse((await post(p.user, { audience, text: 'Hi {name}', dry_run: true }).expect(200)).body).sample.map((s) => s.customer_name);
    expect(await who({ customers: 'all' })).toEqual(['Amina Otieno', 'Baraka Mwangi', 'Chebet Kip']);
    expect(await who({ customers: 'without_device' })).toEqual(['Chebet Kip']);
    expect(await who({ standing: ['far_behind'] })).toEqual(['Baraka Mwangi']);
    expect(await who({ standing: ['on_track', 'paid_off'] })).toEqual(['Amina Otieno']);
    expect(await who({ standing: ['on_track'], county: 'Nakuru' })).toEqual(['Amina Otieno']);
    expect(await who({ product_name: 'solar home 60' })).toEqual(['Baraka Mwangi']);
    expect(await who({ customers: 'all', agent: 'AG-1' })).toEqual(['Baraka Mwangi']);
    expect(await who({ customers: 'all', agent: '(no agent)', county: 'Kisumu' })).toEqual(['Chebet Kip']);
    expect(await who({ customers: 'all', county: 'Nak%' })).toEqual([]);

    const made = ZCampaignReplySchema.parse((await post(p.user, { audience: { county: 'Nakuru' }, text }).expect(200)).body);
    expect(made.message).toBe('2 SMS to Customers with a device, of Nakuru county queued');
    const campaign = made.campaign!;
    expect(campaign).toMatchObject({
      text,
      audience: { customers: 'with_device', county: 'Nakuru' },
      audience_text: 'Customers with a device, of Nakuru county',
      created_by: p.user.username,
      recipients: 2,
      parts: 2,
      skipped_no_phone: 1,
      skipped_opted_out: 1,
      skipped_same_phone: 1,
      status: 'sending',
      delivery: { queued: 2, sent: 0, failed: 0, cancelled: 0 },
      cancelled_at: null,
    });
    const queued = await t.db.db.message.findMany({ where: { organization_id: p.org.id, campaign_id: campaign.campaign_id }, orderBy: { id: 'asc' } });
    expect(queued.map((m) => [m.recipient_number, m.delivery_status, m.sent_by, m.forwarded_message])).toEqual([
      ['254711000001', 'queued', p.user.username, 'Habari Amina: our Nakuru shop moves to Kenyatta Avenue on Monday. Karibu, Amina Otieno!'],
      ['254711000002', 'queued', p.user.username, 'Habari Baraka: our Nakuru shop moves to Kenyatta Avenue on Monday. Karibu, Baraka Mwangi!'],
    ]);
    const audit = await t.db.db.auditLog.findFirstOrThrow({ where: { organization_id: p.org.id, action: 'sms_campaign.sent' } });
    expect(audit).toMatchObject({ entity_type: 'sms_campaign', entity_id: String(campaign.campaign_id) });
    expect(audit.metadata).toMatchObject({ text, recipients: 2, parts: 2, skipped_opted_out: 1, audience: { county: 'Nakuru' } });

    // A payment's reply queued after the campaign still goes first: a customer waiting for a code is not held up.
    const pay = await t.http.post('/payg/payments').set(p.user.auth).send({ serial_number: (await t.db.db.item.findFirstOrThrow({ where: { organization_id: p.org.id, customer_id: p.baraka.id } })).serial_number, amount: 80, payment_method: 'cash' }).expect(201);
    await t.app.get(OutboxService).drain();
    expect(sent.map((s) => s.to)).toEqual(['+254711000002', '+254711000001', '+254711000002']);
    expect(sent[0]!.message).toBe(pay.body.reply_message);
    const after = ZCampaignSchema.parse((await t.http.get(`/payg/sms-campaigns/${campaign.campaign_id}`).set(p.user.auth).expect(200)).body);
    expect(after).toMatchObject({ status: 'sent', delivery: { queued: 0, sent: 2, failed: 0, cancelled: 0 } });
    const list = ZCampaignsReplySchema.parse((await t.http.get('/payg/sms-campaigns').set(p.user.auth).expect(200)).body);
    expect(list.pagination).toEqual({ total: 1, total_pages: 1, page: 1, limit: 20 });
    expect(list.data).toEqual([after]);
    // Every text gone: its counts are kept with it, and its messages are not counted again.
    const row = await t.db.db.smsCampaign.findUniqueOrThrow({ where: { organization_id_id: { organization_id: p.org.id, id: campaign.campaign_id } } });
    expect(row).toMatchObject({ sent_count: 2, failed_count: 0, settled_at: expect.any(Date) });
    await t.db.db.message.updateMany({ where: { organization_id: p.org.id, campaign_id: campaign.campaign_id }, data: { delivery_status: 'failed' } });
    expect((await t.http.get(`/payg/sms-campaigns/${campaign.campaign_id}`).set(p.user.auth).expect(200)).body).toEqual(after);
    // Every text has gone: nothing to cancel.
    expect((await t.http.post(`/payg/sms-campaigns/${campaign.campaign_id}/cancel`).set(p.user.auth).expect(409)).body.message).toBe(
      'Every text of this bulk SMS has gone out already: there is nothing left to cancel',
    );
  });

  it("fills in what each customer has left to pay and their devices' serials, empty for one without a device", async () => {
    const p = await portfolio();
    const serials = async (customerId: number) =>
      (await t.db.db.item.findMany({ where: { organization_id: p.org.id, customer_id: customerId }, orderBy: { serial_number: 'asc' } })).map(
        (i) => i.serial_number,
      );
    // Amina also holds a second device on the same plan, nothing paid on it yet.
    const [first] = await serials(p.amina.id);
    const extra = await seedCustomerWithDevice(t, p.org.id, { template: { daily_price: '40.00', free_code_price: '10000.00' } });
    await t.db.db.item.update({ where: { organization_id_id: { organization_id: p.org.id, id: extra.item.id } }, data: { customer_id: p.amina.id } });
    const text = 'Hi {name}, {balance} is left to pay. Pay to account {serials}.';
    const sample = async (audience: object) =>
      ZCampaignReplySchema.parse((await post(p.user, { audience, text, dry_run: true }).expect(200)).body).sample.map((x) => [x.customer_name, x.text]);
    const currency = (await t.db.db.paymentTemplate.findFirst({ where: { organization_id: p.org.id } }))!.currency;
    const both = [first!, extra.item.serial_number].sort().join(', ');
    expect(await sample({ customers: 'all' })).toEqual([
      ['Amina Otieno', `Hi Amina, ${currency} 18,800.00 is left to pay. Pay to account ${both}.`],
      ['Baraka Mwangi', `Hi Baraka, ${currency} 10,000.00 is left to pay. Pay to account ${(await serials(p.baraka.id)).join(', ')}.`],
      // Empty, and the space around it closed up.
      ['Chebet Kip', 'Hi Chebet, is left to pay. Pay to account .'],
    ]);
    // A device on a plan in another currency is not added to the first: one amount per currency.
    const ugx = await t.db.db.paymentTemplate.create({
      data: { organization_id: p.org.id, template_name: 'Phone UGX', currency: 'UGX', daily_price: '1500.00', free_code_price: '250000.00' },
    });
    await t.db.db.templateAssignment.create({
      data: { organization_id: p.org.id, customer_id: p.amina.id, template_id: ugx.id, item_id: extra.item.id },
    });
    const [[, mixed]] = (await sample({ customers: 'all' })) as [string, string][];
    expect(mixed).toBe(`Hi Amina, ${[`${currency} 8,800.00`, 'UGX 250,000.00'].sort().join(' + ')} is left to pay. Pay to account ${both}.`);
    // The same through a narrowed group (a probe per customer), and beside a standing (the balances joined twice).
    expect((await sample({ standing: ['far_behind'] }))[0]![1]).toBe(`Hi Baraka, ${currency} 10,000.00 is left to pay. Pay to account ${(await serials(p.baraka.id)).join(', ')}.`);
    expect((await sample({ customers: 'with_device', county: 'Nakuru', agent: 'AG-1' }))).toHaveLength(1);
    // Unknown placeholders are still refused, naming the field.
    const bad = await post(p.user, { audience: { customers: 'all' }, text: 'Hi {phone}', dry_run: true }).expect(400);
    expect(bad.body.errors[0].field).toBe('text');
  });

  it('holds a scheduled text until its time, and cancelling it sends none', async () => {
    const p = await portfolio();
    await withSms(p.user);
    const at = new Date(Date.now() + 2 * DAY);
    const made = ZCampaignReplySchema.parse(
      (await post(p.user, { audience: { customers: 'all' }, text: 'Offer for {name}: a TV on credit from KES 60 a day.', send_at: at.toISOString() }).expect(200)).body,
    );
    const campaign = made.campaign!;
    expect(made.message).toBe(`3 SMS to All customers to go at ${at.toISOString()}`);
    expect(campaign).toMatchObject({ status: 'scheduled', send_at: at.toISOString(), recipients: 3, delivery: { queued: 3, sent: 0 } });
    const rows = await t.db.db.message.findMany({ where: { organization_id: p.org.id, campaign_id: campaign.campaign_id } });
    expect(rows.map((m) => m.next_attempt_at?.toISOString())).toEqual([at.toISOString(), at.toISOString(), at.toISOString()]);
    await t.app.get(OutboxService).drain();
    expect(sent).toEqual([]);

    const cancel = ZCampaignCancelReplySchema.parse((await t.http.post(`/payg/sms-campaigns/${campaign.campaign_id}/cancel`).set(p.user.auth).expect(200)).body);
    expect(cancel).toMatchObject({
      message: 'Bulk SMS cancelled: 3 texts not sent',
      cancelled: 3,
      campaign: { status: 'cancelled', cancelled_by: p.user.username, delivery: { queued: 0, sent: 0, failed: 0, cancelled: 3 } },
    });
    expect(await t.db.db.message.count({ where: { organization_id: p.org.id, campaign_id: campaign.campaign_id } })).toBe(0);
    expect((await t.http.post(`/payg/sms-campaigns/${campaign.campaign_id}/cancel`).set(p.user.auth).expect(409)).body.message).toBe(
      'This bulk SMS was cancelled already',
    );
    const audit = await t.db.db.auditLog.findFirstOrThrow({ where: { organization_id: p.org.id, action: 'sms_campaign.cancelled' } });
    expect(audit.metadata).toMatchObject({ campaign_id: campaign.campaign_id, cancelled: 3 });
  });

  it('does not text a customer who says STOP, or asks staff for no texts, after it was set to go', async () => {
    const p = await portfolio();
    await withSms(p.user);
    const made = ZCampaignReplySchema.parse(
      (await post(p.user, { audience: { customers: 'all' }, text: 'Habari {name}, prices drop on Monday.', send_at: new Date(Date.now() + DAY).toISOString() }).expect(200)).body,
    );
    const id = made.campaign!.campaign_id;
    // Baraka texts STOP to the business line; staff record that Chebet asked for no texts.
    const key = await seedApiKey(t, p.user);
    await t.http.post('/payg/external/receive-phoneteletalk').set(key).send({ from: '+254711000002', message: 'STOP' }).expect(200);
    await t.http.post(`/payg/customers/${p.chebet.id}/sms-opt-out`).set(p.user.auth).expect(200);
    const rows = await t.db.db.message.findMany({ where: { organization_id: p.org.id, campaign_id: id }, orderBy: { recipient_number: 'asc' } });
    expect(rows.map((m) => [m.recipient_number, m.delivery_status, m.last_delivery_error])).toEqual([
      ['254711000001', 'queued', null],
      ['254711000002', 'failed', WITHDRAWN_FOR_STOP],
      ['254711000003', 'failed', WITHDRAWN_FOR_STOP],
    ]);
    const campaign = ZCampaignSchema.parse((await t.http.get(`/payg/sms-campaigns/${id}`).set(p.user.auth).expect(200)).body);
    expect(campaign).toMatchObject({ status: 'scheduled', delivery: { queued: 1, sent: 0, failed: 2, cancelled: 0 } });

    // Its texts: each with the customer of the number, what became of it and why.
    const texts = async (query: object) =>
      ZCampaignTextsReplySchema.parse((await t.http.get(`/payg/sms-campaigns/${id}/texts`).query(query).set(p.user.auth).expect(200)).body);
    const all = await texts({});
    expect(all.pagination).toEqual({ total: 3, total_pages: 1, page: 1, limit: 20 });
    expect(all.data.map((x) => [x.customer_name, x.recipient_number, x.status, x.error, x.text])).toEqual([
      ['Amina Otieno', '254711000001', 'queued', null, 'Habari Amina, prices drop on Monday.'],
      ['Baraka Mwangi', '254711000002', 'failed', WITHDRAWN_FOR_STOP, 'Habari Baraka, prices drop on Monday.'],
      ['Chebet Kip', '254711000003', 'failed', WITHDRAWN_FOR_STOP, 'Habari Chebet, prices drop on Monday.'],
    ]);
    expect(all.data[0]).toMatchObject({ customer_id: p.amina.id, attempts: 0, sent_at: null });
    const failed = await texts({ status: 'failed', limit: 1, page: 2 });
    expect(failed.pagination).toEqual({ total: 2, total_pages: 2, page: 2, limit: 1 });
    expect(failed.data.map((x) => x.customer_name)).toEqual(['Chebet Kip']);
    expect((await texts({ status: 'sent' })).data).toEqual([]);
    expect((await t.http.get(`/payg/sms-campaigns/${id}/texts?status=lost`).set(p.user.auth).expect(400)).body.message).toBe(
      'status: must be one of queued, sent, failed',
    );
    await t.http.get('/payg/sms-campaigns/999999/texts').set(p.user.auth).expect(404);
  });

  it('refuses bad input, naming the field, and changes nothing', async () => {
    const p = await portfolio();
    const bad = async (body: object, message: string, status = 400) => expect((await post(p.user, body).expect(status)).body.message).toBe(message);
    const all = Object.keys(CAMPAIGN_SMS_PLACEHOLDERS).map((k) => `{${k}}`).join(', ');
    // No provider: a send is refused, a preview is not.
    await bad({ text: 'Hi {name}' }, 'No SMS provider is set up to send it: an owner or admin sets one in Settings → SMS Provider', 409);
    await post(p.user, { text: 'Hi {name}', dry_run: true }).expect(200);
    await withSms(p.user);
    await bad({ text: 'Hi {nmae} {serial}' }, `text: {nmae}, {serial} are not placeholders: use ${all}`);
    await bad({ text: '  ' }, 'text: is required');
    await bad({}, 'text: is required');
    await bad({ text: 'x'.repeat(1001) }, 'text: must be at most 1000 characters');
    await bad({ text: 'Hi', audience: { customers: 'some' } }, 'audience.customers: must be one of all, with_device, without_device');
    await bad({ text: 'Hi', audience: { standing: ['late'] } }, 'audience.standing.0: must be one of paid_off, on_track, behind, far_behind');
    await bad({ text: 'Hi', audience: { standing: 'behind' } }, 'audience.standing: must be a list');
    await bad({ text: 'Hi', audience: { county: '' } }, 'audience.county: must not be empty');
    await bad(
      { text: 'Hi', audience: { customers: 'without_device', standing: ['behind'] } },
      'audience.customers: must be all or with_device with a standing or a product: customers without a device have neither',
    );
    await bad({ text: 'Hi', send_at: 'tomorrow' }, 'send_at: must be an ISO 8601 date and time');
    await bad({ text: 'Hi', send_at: new Date(Date.now() - DAY).toISOString() }, 'send_at: must not be in the past');
    await bad({ text: 'Hi', send_at: new Date(Date.now() + 31 * DAY).toISOString() }, 'send_at: must be within 30 days');
    await bad({ text: 'Hi', dry_run: 'yes' }, 'dry_run: must be true or false');
    await bad({ text: 'Hi', audience: { county: 'Mombasa' } }, 'audience: no customer of Customers with a device, of Mombasa county has a phone number and takes texts');
    // 450 characters and a full name: over 3 SMS (459 characters) once filled in.
    await bad({ text: `${'x'.repeat(450)} {full_name}` }, 'text: filled in for Amina Otieno it is 4 SMS: it must fit in 3 for every customer');
    expect(await counts(p.org.id)).toEqual({ campaigns: 0, messages: 0 });
    await t.http.get('/payg/sms-campaigns?page=0').set(p.user.auth).expect(400);
    await t.http.get('/payg/sms-campaigns/abc').set(p.user.auth).expect(400);
    await t.http.get('/payg/sms-campaigns/999999').set(p.user.auth).expect(404);
  });

  it(`refuses a group of more than ${MAX_CAMPAIGN_RECIPIENTS.toLocaleString('en')} customers`, async () => {
    const { org, user } = await seedTenant(t);
    await withSms(user);
    await t.db.pool.query(
      `INSERT INTO customers (organization_id, customer_name, id_number, phone_contact, phone_normalized)
       SELECT $1::varchar, 'Bulk ' || g, 'B' || g, '07' || lpad(g::text, 8, '0'), '2547' || lpad(g::text, 8, '0') FROM generate_series(1, $2::int) g`,
      [org.id, MAX_CAMPAIGN_RECIPIENTS + 1],
    );
    const res = await post(user, { audience: { customers: 'all' }, text: 'Hi {name}' }).expect(409);
    expect(res.body.message).toBe(
      'More than 100,000 customers are in this group: text a narrower one (by county, product, repayment standing or sales agent) at a time',
    );
    expect(await counts(org.id)).toEqual({ campaigns: 0, messages: 0 });
  }, 120_000);

  it('is for owners and admins, each organization its own', async () => {
    const p = await portfolio();
    await withSms(p.user);
    const made = ZCampaignReplySchema.parse((await post(p.user, { audience: { customers: 'all' }, text: 'Hi {name}', send_at: new Date(Date.now() + DAY).toISOString() }).expect(200)).body);
    const id = made.campaign!.campaign_id;
    const staff = await seedUser(t, { organization_id: p.org.id, role: 'staff' });
    await post(staff, { text: 'Hi', dry_run: true }).expect(403);
    await t.http.get('/payg/sms-campaigns').set(staff.auth).expect(403);
    await t.http.get(`/payg/sms-campaigns/${id}`).set(staff.auth).expect(403);
    await t.http.post(`/payg/sms-campaigns/${id}/cancel`).set(staff.auth).expect(403);
    await t.http.get(`/payg/sms-campaigns/${id}/texts`).set(staff.auth).expect(403);
    const admin = await seedUser(t, { organization_id: p.org.id, role: 'admin' });
    await t.http.get(`/payg/sms-campaigns/${id}`).set(admin.auth).expect(200);

    const other = await seedTenant(t);
    await withSms(other.user);
    await t.http.get(`/payg/sms-campaigns/${id}`).set(other.user.auth).expect(404);
    await t.http.post(`/payg/sms-campaigns/${id}/cancel`).set(other.user.auth).expect(404);
    await t.http.get(`/payg/sms-campaigns/${id}/texts`).set(other.user.auth).expect(404);
    expect(ZCampaignsReplySchema.parse((await t.http.get('/payg/sms-campaigns').set(other.user.auth).expect(200)).body).data).toEqual([]);
    // Their group is their own customers only: nobody yet.
    expect((await post(other.user, { audience: { customers: 'all' }, text: 'Hi' }).expect(400)).body.message).toBe(
      'audience: no customer of All customers has a phone number and takes texts',
    );
    expect(await t.db.db.message.count({ where: { organization_id: p.org.id, campaign_id: id } })).toBe(3);
  });
});
