import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { NO_AGENT, ZBandSmsReplySchema, ZCollectionAgentsReplySchema, ZCollectionsReplySchema, ZCollectionsSummaryReplySchema } from '@kidogo/contracts';
import { createTestApp, type TestApp } from './support/test-app.js';
import { seedCustomerWithDevice, seedTenant, type SeededUser } from './support/factories.js';

// Collections by sales agent: a field agent's own worklist. Each open account
// keeps its customer's agent (0053_open_account_agents), so the list, its
// counts, the CSV and a text to a band take one agent's accounts.

const DAY = 86_400_000;
const ago = (days: number) => new Date(Date.now() - days * DAY - 3_600_000);

describe('collections by sales agent', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const get = (user: SeededUser, path: string, query: Record<string, string | number> = {}) => t.http.get(`/payg/collections${path}`).query(query).set(user.auth);
  const serials = async (user: SeededUser, query: Record<string, string | number> = {}) =>
    ZCollectionsReplySchema.parse((await get(user, '', query).expect(200)).body).data.items.map((a) => a.serial_number);
  const summary = async (user: SeededUser, agent?: string) =>
    ZCollectionsSummaryReplySchema.parse((await get(user, '/summary', agent === undefined ? {} : { agent }).expect(200)).body).data;
  const agents = async (user: SeededUser) => ZCollectionAgentsReplySchema.parse((await get(user, '/agents').expect(200)).body).data;

  /** Devices out of credit 3, 12 and 45 days of AG-1 (one written " AG-1 "), 5 days of AG-2, 20 days without an agent, and AG-3's in credit. */
  async function portfolio() {
    const { org, user } = await seedTenant(t);
    const mk = async (agent: string | null, until: Date) => {
      const d = await seedCustomerWithDevice(t, org.id, { template: { daily_price: '40.00', free_code_price: '4000.00', currency: 'KES' } });
      await t.db.db.customer.update({ where: { organization_id_id: { organization_id: org.id, id: d.customer.id } }, data: { agent_id: agent } });
      await t.db.db.item.update({ where: { organization_id_id: { organization_id: org.id, id: d.item.id } }, data: { credit_until: until } });
      return d;
    };
    const a3 = await mk('AG-1', ago(3));
    const a12 = await mk(' AG-1 ', ago(12));
    const a45 = await mk('AG-1', ago(45));
    const b5 = await mk('AG-2', ago(5));
    const none20 = await mk('  ', ago(20));
    const current = await mk('AG-3', new Date(Date.now() + 5 * DAY));
    return { org, user, a3, a12, a45, b5, none20, current };
  }

  it("lists, counts and exports one agent's accounts, and names the agents to choose from", async () => {
    const p = await portfolio();
    const s = (d: { item: { serial_number: string } }) => d.item.serial_number;
    expect(await serials(p.user, { agent: 'AG-1' })).toEqual([s(p.a3), s(p.a12), s(p.a45)]);
    expect(await serials(p.user, { agent: ' AG-1 ' })).toEqual([s(p.a3), s(p.a12), s(p.a45)]);
    expect(await serials(p.user, { agent: 'AG-1', bucket: '8-30' })).toEqual([s(p.a12)]);
    expect(await serials(p.user, { agent: NO_AGENT })).toEqual([s(p.none20)]);
    expect(await serials(p.user, { agent: 'AG-3' })).toEqual([]);
    expect(await serials(p.user, { agent: 'ag-1' })).toEqual([]);
    expect(await serials(p.user)).toHaveLength(5);
    const page = ZCollectionsReplySchema.parse((await get(p.user, '', { agent: 'AG-1', limit: 2, page: 2 }).expect(200)).body).data;
    expect(page.items.map((a) => a.serial_number)).toEqual([s(p.a45)]);
    expect(page.pagination).toEqual({ total: 3, total_pages: 2, page: 2, limit: 2 });

    const one = await summary(p.user, 'AG-1');
    expect(one).toMatchObject({ open_accounts: 3, out_of_credit: 3 });
    expect(one.buckets.map((b) => b.devices)).toEqual([1, 1, 1, 0]);
    // Each device: 4,000.00 to pay off, nothing paid.
    expect(one.outstanding).toBe('12000.00');
    expect(await summary(p.user, 'AG-3')).toMatchObject({ open_accounts: 1, out_of_credit: 0 });
    expect(await summary(p.user)).toMatchObject({ open_accounts: 6, out_of_credit: 5 });

    expect(await agents(p.user)).toEqual({ agents: ['AG-1', 'AG-2', 'AG-3', NO_AGENT], truncated: false });

    const csv = await get(p.user, '/export', { agent: 'AG-1', bucket: '31-90' }).expect(200);
    const lines = csv.text.replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines.slice(1).map((l) => l.split(',')[3])).toEqual([s(p.a45)]);
    const audit = await t.db.db.auditLog.findFirst({ where: { organization_id: p.org.id, action: 'collections.exported' }, orderBy: { id: 'desc' } });
    expect(audit?.description).toBe('Exported 1 devices out of credit of agent AG-1 to CSV');
  });

  it('follows the customer to another agent, and the device to another customer', async () => {
    const p = await portfolio();
    const customer = (id: number) => ({ organization_id_id: { organization_id: p.org.id, id } });
    await t.db.db.customer.update({ where: customer(p.a12.customer.id), data: { agent_id: 'AG-2' } });
    expect(await serials(p.user, { agent: 'AG-1' })).toEqual([p.a3.item.serial_number, p.a45.item.serial_number]);
    expect(await serials(p.user, { agent: 'AG-2' })).toEqual([p.b5.item.serial_number, p.a12.item.serial_number]);
    await t.db.db.customer.update({ where: customer(p.a3.customer.id), data: { agent_id: null } });
    expect(await serials(p.user, { agent: NO_AGENT })).toEqual([p.a3.item.serial_number, p.none20.item.serial_number]);
    // Through the API too, as staff change it on the customer's form.
    await t.http.put(`/payg/customers/${p.none20.customer.id}`).set(p.user.auth).send({ agent_id: 'AG-9' }).expect(200);
    expect(await serials(p.user, { agent: 'AG-9' })).toEqual([p.none20.item.serial_number]);
    // The device given to AG-3's customer instead.
    await t.http.post('/payg/items/unassign').set(p.user.auth).send({ item_serial_number: p.a45.item.serial_number }).expect(200);
    await t.http
      .post('/payg/items/assign')
      .set(p.user.auth)
      .send({ item_serial_number: p.a45.item.serial_number, customer_id: p.current.customer.id })
      .expect((r) => expect([200, 201]).toContain(r.status));
    const row = await t.db.db.openAccount.findUnique({ where: { organization_id_item_id: { organization_id: p.org.id, item_id: p.a45.item.id } } });
    expect(row?.agent).toBe('AG-3');
    // The Agent report reads the same agents.
    const report = await t.http.post('/payg/reports/page').set(p.user.auth).send({ report: 'agents' }).expect(200);
    const outOfCredit = Object.fromEntries(report.body.rows.map((r: { agent: string; out_of_credit: number }) => [r.agent, r.out_of_credit]));
    const listed = async (agent: string) => (await summary(p.user, agent)).out_of_credit;
    for (const agent of Object.keys(outOfCredit)) expect([agent, outOfCredit[agent]]).toEqual([agent, await listed(agent)]);
  });

  it("texts one agent's band only", async () => {
    const p = await portfolio();
    await t.http.put('/payg/settings/sms-provider').set(p.user.auth).send({ provider: 'sms_webhook', config: { url: 'http://127.0.0.1:9/sms' } }).expect(200);
    for (const [id, phone] of [[p.a3.customer.id, '0711000001'], [p.a12.customer.id, '0711000002'], [p.b5.customer.id, '0711000003']] as const) {
      await t.db.db.customer.update({ where: { organization_id_id: { organization_id: p.org.id, id } }, data: { phone_contact: phone, phone_normalized: `254${phone.slice(1)}` } });
    }
    const preview = ZBandSmsReplySchema.parse(
      (await t.http.post('/payg/collections/sms').set(p.user.auth).send({ bucket: '0-7', agent: 'AG-1', text: 'Hi {name}', dry_run: true }).expect(200)).body,
    );
    expect(preview).toMatchObject({ agent: 'AG-1', recipients: 1, message: 'Would send 1 SMS to the customers 0–7 days without credit of agent AG-1' });
    expect(preview.sample.map((x) => x.serial_number)).toEqual([p.a3.item.serial_number]);
    const sent = ZBandSmsReplySchema.parse((await t.http.post('/payg/collections/sms').set(p.user.auth).send({ bucket: 'all', agent: 'AG-2', text: 'Hi {name}' }).expect(200)).body);
    expect(sent).toMatchObject({ queued: 1, message: '1 SMS queued to all the customers without credit of agent AG-2' });
    const queued = await t.db.db.message.findMany({ where: { organization_id: p.org.id, sent_by: p.user.username } });
    expect(queued.map((m) => m.item_id)).toEqual([p.b5.item.id]);
    const audit = await t.db.db.auditLog.findFirst({ where: { organization_id: p.org.id, action: 'collections.sms_sent' } });
    expect(audit?.metadata).toMatchObject({ bucket: 'all', agent: 'AG-2', queued: 1 });
  });

  it('refuses an empty or too long agent with a 400 naming it', async () => {
    const { user } = await seedTenant(t);
    for (const path of ['', '/summary', '/export']) {
      for (const agent of ['  ', 'A'.repeat(65)]) {
        const res = await get(user, path, { agent });
        expect([path, res.status]).toEqual([path, 400]);
        expect(res.body.errors.map((e: { field: string }) => e.field)).toContain('agent');
      }
    }
    const sms = await t.http.post('/payg/collections/sms').set(user.auth).send({ bucket: 'all', agent: '', text: 'Hi', dry_run: true });
    expect(sms.status).toBe(400);
    expect(sms.body.errors[0].field).toBe('agent');
  });

  it("shows one organization none of another's agents, even of the same name", async () => {
    const a = await portfolio();
    const b = await portfolio();
    expect(await serials(b.user, { agent: 'AG-1' })).toEqual([b.a3.item.serial_number, b.a12.item.serial_number, b.a45.item.serial_number]);
    const other = await seedTenant(t);
    expect(await serials(other.user, { agent: 'AG-1' })).toEqual([]);
    expect(await summary(other.user, 'AG-1')).toMatchObject({ open_accounts: 0 });
    expect(await agents(other.user)).toEqual({ agents: [], truncated: false });
    const csv = await get(other.user, '/export', { agent: 'AG-1' }).expect(200);
    expect(csv.text).not.toContain(a.a3.item.serial_number);
  });
});
