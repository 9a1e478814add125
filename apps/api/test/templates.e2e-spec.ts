import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  ZPaymentTemplateSchema,
  ZTemplateAssignmentsReplySchema,
  ZTemplateAssignReplySchema,
  ZTemplateListReplySchema,
  ZTemplatePerformanceListReplySchema,
  ZTemplatePerformanceReplySchema,
  ZTemplateSummarySchema,
  ZTemplateUsageReplySchema,
} from '@kidogo/contracts';
import { Prisma } from '../src/generated/prisma/client.js';
import { CACHED_COUNT_MIN_ROWS } from '../src/common/list-counts.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { seedCustomer, seedItem, seedTemplate, seedTenant } from './support/factories.js';
import { recordPayment } from './support/catalog.js';

const DAY = 86_400_000;

describe('payment templates', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  describe('POST /payments/templates/create', () => {
    it('creates a template with the defaults', async () => {
      const { user, org } = await seedTenant(t);
      const res = await t.http
        .post('/payg/payments/templates/create')
        .set(user.auth)
        .send({ template_name: '  Daily 50  ', daily_price: 50, organization_id: 'elsewhere' })
        .expect(201);
      expect(ZPaymentTemplateSchema.parse(res.body)).toMatchObject({
        template_name: 'Daily 50',
        daily_price: '50.00',
        deposit_made: '0.00',
        activation_price: '0.00',
        grace_period_days: 0,
        currency: 'KES',
        free_code_price: null,
        description: null,
        organization_id: org.id,
      });
    });

    it('takes every field, numbers given as strings, and a currency in any case', async () => {
      const { user } = await seedTenant(t);
      const res = await t.http
        .post('/payg/payments/templates/create')
        .set(user.auth)
        .send({
          template_name: 'Premium',
          description: 'Fridge plan',
          deposit_made: '1000',
          daily_price: '75.5',
          activation_price: 500,
          grace_period_days: '3',
          currency: 'usd',
          payment_method: 'mobile_money',
          frequency: 'daily',
          free_code_price: '20000.00',
        })
        .expect(201);
      expect(ZPaymentTemplateSchema.parse(res.body)).toMatchObject({
        deposit_made: '1000.00',
        daily_price: '75.50',
        activation_price: '500.00',
        grace_period_days: 3,
        currency: 'USD',
        free_code_price: '20000.00',
        frequency: 'daily',
      });
    });

    it('names each invalid field', async () => {
      const { user, org } = await seedTenant(t);
      const res = await t.http
        .post('/payg/payments/templates/create')
        .set(user.auth)
        .send({ template_name: '  ', deposit_made: -1, daily_price: 0, activation_price: 'x', grace_period_days: 1.5, currency: 'XAF', free_code_price: 0 })
        .expect(400);
      expect(res.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(
        ['activation_price', 'currency', 'daily_price', 'deposit_made', 'free_code_price', 'grace_period_days', 'template_name'].sort(),
      );
      expect(res.body.message).toContain('daily_price: must be at least 0.01');
      expect(res.body.message).toContain('currency: must be one of KES, USD, MZN, EUR, GBP, UGX, TZS, RWF');
      const missing = await t.http.post('/payg/payments/templates/create').set(user.auth).send({ template_name: 'No price' }).expect(400);
      expect(missing.body.message).toContain('daily_price');
      await t.http.post('/payg/payments/templates/create').set(user.auth).send({ template_name: 'Neg', daily_price: 5, grace_period_days: -1 }).expect(400);
      expect(await t.db.db.paymentTemplate.count({ where: { organization_id: org.id } })).toBe(0);
    });
  });

  describe('GET /payments/templates', () => {
    it('pages newest first under data.data with the total, up to 1000 at a time', async () => {
      const { user, org } = await seedTenant(t);
      for (let i = 0; i < 12; i++) await seedTemplate(t, org.id, { template_name: `Plan ${String(i).padStart(2, '0')}` });
      const first = ZTemplateListReplySchema.parse((await t.http.get('/payg/payments/templates').set(user.auth).expect(200)).body);
      expect(first.data.data).toHaveLength(10);
      expect(first.data.data[0].template_name).toBe('Plan 11');
      expect(first.data.pagination).toEqual({ total: 12, total_pages: 2, limit: 10, offset: 0 });
      const all = ZTemplateListReplySchema.parse((await t.http.get('/payg/payments/templates?limit=1000').set(user.auth).expect(200)).body);
      expect(all.data.data).toHaveLength(12);
      const past = ZTemplateListReplySchema.parse((await t.http.get('/payg/payments/templates?offset=50').set(user.auth).expect(200)).body);
      expect(past.data).toEqual({ data: [], pagination: { total: 12, total_pages: 2, limit: 10, offset: 50 } });
      for (const qs of ['limit=0', 'limit=-1', 'limit=1001', 'offset=-1']) await t.http.get(`/payg/payments/templates?${qs}`).set(user.auth).expect(400);
    });

    it('searches name, description, payment method or frequency; any other field is a 400', async () => {
      const a = await seedTenant(t);
      const b = await seedTenant(t);
      await t.http.post('/payg/payments/templates/create').set(a.user.auth).send({ template_name: 'Lamp Weekly', daily_price: 10, frequency: 'weekly', description: 'For lamps' }).expect(201);
      await t.http.post('/payg/payments/templates/create').set(a.user.auth).send({ template_name: 'TV Daily', daily_price: 40, payment_method: 'cash', frequency: 'daily' }).expect(201);
      await seedTemplate(t, b.org.id, { template_name: 'Lamp of B' });
      const search = async (qs: string, auth = a.user.auth) =>
        ZTemplateListReplySchema.parse((await t.http.get(`/payg/payments/templates?${qs}`).set(auth).expect(200)).body).data.data.map((x) => x.template_name);
      expect(await search('search_term=lamp')).toEqual(['Lamp Weekly']);
      expect(await search('search_term=WEEK&search_field=frequency')).toEqual(['Lamp Weekly']);
      expect(await search('search_term=lamps&search_field=description')).toEqual(['Lamp Weekly']);
      expect(await search('search_term=cash&search_field=payment_method')).toEqual(['TV Daily']);
      expect(await search('search_term=lamp', b.user.auth)).toEqual(['Lamp of B']);
      const bad = await t.http.get('/payg/payments/templates?search_term=x&search_field=currency').set(a.user.auth).expect(400);
      expect(bad.body.message).toContain('search_field: must be one of template_name, description, payment_method, frequency');
    });
  });

  describe('changing a plan is audited', () => {
    it('writes who created it, and each change of its terms before and after with how many are on it; a change of nothing writes nothing', async () => {
      const { user, org } = await seedTenant(t);
      const created = (await t.http.post('/payg/payments/templates/create').set(user.auth).send({ template_name: 'Lamp 20', daily_price: 20, free_code_price: 3000 }).expect(201)).body;
      const entries = () => t.db.platform.auditLog.findMany({ where: { organization_id: org.id, entity_type: 'payment_template' }, orderBy: { id: 'asc' } });
      expect((await entries()).map((e) => [e.action, e.description])).toEqual([['template.created', 'Created payment template Lamp 20: KES 20.00 a day']]);

      const customer = await seedCustomer(t, org.id);
      await t.db.db.templateAssignment.create({ data: { organization_id: org.id, customer_id: customer.id, template_id: created.template_id, is_active: true } });
      const before = await t.db.db.paymentTemplate.findUniqueOrThrow({ where: { organization_id_id: { organization_id: org.id, id: created.template_id } } });
      // The same values again: nothing written, not even updated_at.
      await t.http.put(`/payg/payments/templates/${created.template_id}`).set(user.auth).send({ daily_price: '20.00', template_name: 'Lamp 20' }).expect(200);
      expect(await entries()).toHaveLength(1);
      expect((await t.db.db.paymentTemplate.findUniqueOrThrow({ where: { organization_id_id: { organization_id: org.id, id: created.template_id } } })).updated_at).toEqual(before.updated_at);

      await t.http.put(`/payg/payments/templates/${created.template_id}`).set(user.auth).send({ daily_price: 25, free_code_price: null, description: 'Raised' }).expect(200);
      const changed = (await entries())[1]!;
      expect(changed).toMatchObject({
        action: 'template.updated',
        actor_username: user.username,
        description: 'Changed payment template Lamp 20: description none → Raised, daily_price 20.00 → 25.00, free_code_price 3000.00 → none (the plan of 1 assignment)',
      });
      expect(changed.metadata).toEqual({
        changes: { daily_price: { from: '20.00', to: '25.00' }, free_code_price: { from: '3000.00', to: null }, description: { from: null, to: 'Raised' } },
        active_assignments: 1,
      });
      // A change of its name alone changes nobody's contract: no count.
      await t.http.put(`/payg/payments/templates/${created.template_id}`).set(user.auth).send({ template_name: 'Lamp 25' }).expect(200);
      expect((await entries())[2]!.metadata).toEqual({ changes: { template_name: { from: 'Lamp 20', to: 'Lamp 25' } }, active_assignments: 0 });
    });
  });

  describe('GET, PUT and DELETE /payments/templates/{id}', () => {
    it('reads, changes only what is sent, and keeps other organizations out', async () => {
      const a = await seedTenant(t);
      const b = await seedTenant(t);
      const tpl = await seedTemplate(t, a.org.id, { template_name: 'Original', daily_price: '50.00', free_code_price: '15000.00' });
      expect(ZPaymentTemplateSchema.parse((await t.http.get(`/payg/payments/templates/${tpl.id}`).set(a.user.auth).expect(200)).body).template_name).toBe('Original');
      const res = await t.http.put(`/payg/payments/templates/${tpl.id}`).set(a.user.auth).send({ daily_price: '60', organization_id: b.org.id }).expect(200);
      expect(ZPaymentTemplateSchema.parse(res.body)).toMatchObject({ daily_price: '60.00', template_name: 'Original', free_code_price: '15000.00', organization_id: a.org.id });
      const cleared = await t.http.put(`/payg/payments/templates/${tpl.id}`).set(a.user.auth).send({ free_code_price: null, currency: 'eur' }).expect(200);
      expect(cleared.body).toMatchObject({ free_code_price: null, currency: 'EUR' });
      // Ugandan shillings, for an organization whose customers pay by Airtel or MTN in Uganda.
      const ugx = await t.http.put(`/payg/payments/templates/${tpl.id}`).set(a.user.auth).send({ currency: 'ugx' }).expect(200);
      expect(ugx.body.currency).toBe('UGX');
      await t.http.put(`/payg/payments/templates/${tpl.id}`).set(a.user.auth).send({ daily_price: 0 }).expect(400);
      await t.http.put(`/payg/payments/templates/${tpl.id}`).set(a.user.auth).send({ template_name: '' }).expect(400);

      await t.http.get(`/payg/payments/templates/${tpl.id}`).set(b.user.auth).expect(404);
      await t.http.put(`/payg/payments/templates/${tpl.id}`).set(b.user.auth).send({ daily_price: 1 }).expect(404);
      await t.http.delete(`/payg/payments/templates/${tpl.id}`).set(b.user.auth).expect(404);
      await t.http.get(`/payg/payments/templates/${tpl.id}/performance`).set(b.user.auth).expect(404);
      await t.http.get(`/payg/payments/templates/${tpl.id}/usage`).set(b.user.auth).expect(404);
      const row = await t.db.db.paymentTemplate.findUnique({ where: { organization_id_id: { organization_id: a.org.id, id: tpl.id } } });
      expect(row?.daily_price.toFixed(2)).toBe('60.00');
      await t.http.get('/payg/payments/templates/0').set(a.user.auth).expect(400);
      await t.http.get('/payg/payments/templates/999999').set(a.user.auth).expect(404);
    });

    it('deletes a template no customer is on (with its history) and refuses one in use', async () => {
      const { user, org } = await seedTenant(t);
      const [used, old] = [await seedTemplate(t, org.id, { template_name: 'In Use' }), await seedTemplate(t, org.id, { template_name: 'Old' })];
      const [c1, c2] = [await seedCustomer(t, org.id), await seedCustomer(t, org.id)];
      await t.http.post('/payg/payments/templates/assign').set(user.auth).send({ customer_id: c1.id, template_id: used.id }).expect(200);
      await t.http.post('/payg/payments/templates/assign').set(user.auth).send({ customer_id: c2.id, template_id: old.id }).expect(200);
      await t.http.post('/payg/payments/templates/assign').set(user.auth).send({ customer_id: c2.id, template_id: used.id }).expect(200);
      const refused = await t.http.delete(`/payg/payments/templates/${used.id}`).set(user.auth).expect(409);
      expect(refused.body.detail).toBe('Template In Use is assigned to 2 customer(s); assign them another template first');
      expect((await t.http.delete(`/payg/payments/templates/${old.id}`).set(user.auth).expect(200)).body.message).toBe('Payment template Old deleted');
      await t.http.get(`/payg/payments/templates/${old.id}`).set(user.auth).expect(404);
      expect(await t.db.db.templateAssignment.count({ where: { organization_id: org.id, template_id: old.id } })).toBe(0);
      expect(await t.db.platform.auditLog.count({ where: { organization_id: org.id, action: 'template.deleted' } })).toBe(1);
    });
  });

  describe('POST /payments/templates/assign and GET /payments/templates/assignments', () => {
    it('assigns, replaces the active assignment keeping history, and changes nothing for the same template', async () => {
      const { user, org } = await seedTenant(t);
      const customer = await seedCustomer(t, org.id, { customer_name: 'Kevin Otieno' });
      const [daily, weekly] = [await seedTemplate(t, org.id, { template_name: 'Daily' }), await seedTemplate(t, org.id, { template_name: 'Weekly' })];
      const first = ZTemplateAssignReplySchema.parse(
        (
          await t.http
            .post('/payg/payments/templates/assign')
            .set(user.auth)
            .send({ customer_id: customer.id, template_id: String(daily.id), start_date: '2026-01-01', end_date: '2026-12-31', notes: ' first plan ' })
            .expect(200)
        ).body,
      );
      expect(first.changed).toBe(true);
      expect(first.assignment).toMatchObject({
        customer_name: 'Kevin Otieno',
        template_name: 'Daily',
        start_date: '2026-01-01',
        end_date: '2026-12-31',
        notes: 'first plan',
        is_active: true,
        assigned_by: user.username,
        ended_at: null,
      });
      const same = ZTemplateAssignReplySchema.parse(
        (await t.http.post('/payg/payments/templates/assign').set(user.auth).send({ customer_id: customer.id, template_id: daily.id }).expect(200)).body,
      );
      expect(same).toMatchObject({ changed: false, assignment: { assignment_id: first.assignment.assignment_id } });
      const moved = ZTemplateAssignReplySchema.parse(
        (await t.http.post('/payg/payments/templates/assign').set(user.auth).send({ customer_id: customer.id, template_id: weekly.id }).expect(200)).body,
      );
      expect(moved.assignment).toMatchObject({ template_name: 'Weekly', is_active: true });

      const list = ZTemplateAssignmentsReplySchema.parse((await t.http.get('/payg/payments/templates/assignments').set(user.auth).expect(200)).body);
      expect(list.data.map((a) => [a.template_name, a.is_active, a.ended_at !== null])).toEqual([
        ['Weekly', true, false],
        ['Daily', false, true],
      ]);
      expect(list.pagination.total).toBe(2);
      const onlyDaily = ZTemplateAssignmentsReplySchema.parse(
        (await t.http.get(`/payg/payments/templates/assignments?template_id=${daily.id}`).set(user.auth).expect(200)).body,
      );
      expect(onlyDaily.data).toHaveLength(1);
      const active = ZTemplateAssignmentsReplySchema.parse((await t.http.get('/payg/payments/templates/assignments?active=true').set(user.auth).expect(200)).body);
      expect(active.data.map((a) => a.template_name)).toEqual(['Weekly']);
      await t.http.get('/payg/payments/templates/assignments?active=maybe').set(user.auth).expect(400);
      await t.http.get('/payg/payments/templates/assignments?limit=0').set(user.auth).expect(400);
    });

    it('pages many assignments with each filter exactly as ORDER BY and OFFSET on the rows would, keeping a large total', async () => {
      const { user, org } = await seedTenant(t);
      const [a, b] = [await seedTemplate(t, org.id, { template_name: 'Plan A' }), await seedTemplate(t, org.id, { template_name: 'Plan B' })];
      const n = CACHED_COUNT_MIN_ROWS + 60;
      // One customer per assignment; every fourth assignment ended, every third on plan B.
      await t.db.query(Prisma.sql`
        WITH c AS (
          INSERT INTO customers (organization_id, customer_name, id_number, phone_contact, updated_at)
          SELECT ${org.id}, 'Bulk ' || g, 'BULK-' || g, '0711' || lpad(g::text, 6, '0'), now() FROM generate_series(1, ${n}::int) g
          RETURNING customer_id, customer_name
        )
        INSERT INTO template_assignments (organization_id, customer_id, template_id, is_active, ended_at)
        SELECT ${org.id}, customer_id, CASE WHEN customer_id % 3 = 0 THEN ${b.id}::int ELSE ${a.id}::int END,
               customer_id % 4 <> 0, CASE WHEN customer_id % 4 = 0 THEN now() END
        FROM c ORDER BY customer_id`);
      const other = await seedTenant(t);
      await t.http.post('/payg/payments/templates/assign').set(other.user.auth).send({
        customer_id: (await seedCustomer(t, other.org.id)).id,
        template_id: (await seedTemplate(t, other.org.id)).id,
      }).expect(200);

      const expectPages = async (query: Record<string, string>, where: Prisma.Sql) => {
        const [{ total }] = (await t.db.query<{ total: number }>(
          Prisma.sql`SELECT count(*)::int AS total FROM template_assignments a WHERE organization_id = ${org.id} AND ${where}`,
        )) as [{ total: number }];
        for (const offset of [0, 7, 95, 100, total - 4, total, total + 3]) {
          const reply = ZTemplateAssignmentsReplySchema.parse(
            (await t.http.get('/payg/payments/templates/assignments').query({ limit: 10, offset, ...query }).set(user.auth).expect(200)).body,
          );
          const expected = await t.db.query<{ id: number; customer_name: string; template_name: string }>(Prisma.sql`
            SELECT a.assignment_id AS id, c.customer_name, p.template_name FROM template_assignments a
            JOIN customers c ON c.organization_id = a.organization_id AND c.customer_id = a.customer_id
            JOIN payment_templates p ON p.organization_id = a.organization_id AND p.template_id = a.template_id
            WHERE a.organization_id = ${org.id} AND ${where} ORDER BY a.assignment_id DESC LIMIT 10 OFFSET ${offset}::int`);
          expect({ offset, rows: reply.data.map((r) => [r.assignment_id, r.customer_name, r.template_name]), total: reply.pagination.total }).toEqual({
            offset,
            rows: expected.map((r) => [r.id, r.customer_name, r.template_name]),
            total,
          });
        }
        return total;
      };
      expect(await expectPages({}, Prisma.sql`true`)).toBe(n);
      expect(await expectPages({ active: 'true' }, Prisma.sql`a.is_active`)).toBeGreaterThanOrEqual(CACHED_COUNT_MIN_ROWS);
      expect(await expectPages({ active: 'false' }, Prisma.sql`NOT a.is_active`)).toBeLessThan(CACHED_COUNT_MIN_ROWS);
      await expectPages({ template_id: String(b.id), active: 'true' }, Prisma.sql`a.template_id = ${b.id}::int AND a.is_active`);
      // The totals of 100 or more are kept, one per filter; the small ones are counted every time.
      const kept = await t.db.query<{ key: string; total: number }>(Prisma.sql`
        SELECT key, total FROM list_counts WHERE organization_id = ${org.id} AND list = 'assignments' ORDER BY total DESC`);
      expect(kept.map((k) => [JSON.parse(k.key), k.total])).toEqual([
        [[null, null, null], n],
        [[null, null, true], expect.any(Number)],
      ]);
    });

    it('answers 404 for unknown or foreign customers and templates, 400 for bad input', async () => {
      const a = await seedTenant(t);
      const b = await seedTenant(t);
      const customerA = await seedCustomer(t, a.org.id);
      const templateA = await seedTemplate(t, a.org.id);
      const customerB = await seedCustomer(t, b.org.id);
      const templateB = await seedTemplate(t, b.org.id);
      const assign = (auth: { Authorization: string }, body: object) => t.http.post('/payg/payments/templates/assign').set(auth).send(body);
      expect((await assign(a.user.auth, { customer_id: 999_999, template_id: templateA.id }).expect(404)).body.detail).toBe('Customer not found');
      expect((await assign(a.user.auth, { customer_id: customerA.id, template_id: 999_999 }).expect(404)).body.detail).toBe('Payment template not found');
      await assign(b.user.auth, { customer_id: customerA.id, template_id: templateB.id }).expect(404);
      await assign(b.user.auth, { customer_id: customerB.id, template_id: templateA.id }).expect(404);
      await assign(a.user.auth, { customer_id: customerA.id }).expect(400);
      const dates = await assign(a.user.auth, { customer_id: customerA.id, template_id: templateA.id, start_date: '2026-05-01', end_date: '2026-04-01' }).expect(400);
      expect(dates.body.message).toBe('end_date: must not be before start_date');
      await assign(a.user.auth, { customer_id: customerA.id, template_id: templateA.id, start_date: 'soon' }).expect(400);
      expect(await t.db.platform.templateAssignment.count({ where: { customer_id: { in: [customerA.id, customerB.id] }, organization_id: { in: [a.org.id, b.org.id] } } })).toBe(0);
      const listB = ZTemplateAssignmentsReplySchema.parse((await t.http.get('/payg/payments/templates/assignments').set(b.user.auth).expect(200)).body);
      expect(listB.data).toEqual([]);
    });

    it('keeps one active template per customer when assignments race', async () => {
      const { user, org } = await seedTenant(t);
      const customer = await seedCustomer(t, org.id);
      const templates = await Promise.all(Array.from({ length: 5 }, () => seedTemplate(t, org.id)));
      const replies = await Promise.all(
        templates.map((tpl) => t.http.post('/payg/payments/templates/assign').set(user.auth).send({ customer_id: customer.id, template_id: tpl.id })),
      );
      expect(replies.every((r) => r.status === 200)).toBe(true);
      expect(await t.db.db.templateAssignment.count({ where: { organization_id: org.id, customer_id: customer.id, is_active: true } })).toBe(1);
      expect(await t.db.db.templateAssignment.count({ where: { organization_id: org.id, customer_id: customer.id } })).toBe(5);
    });
  });

  describe('summary, performance and usage', () => {
    it('summarises the templates and the customers on them', async () => {
      const { user, org } = await seedTenant(t);
      const empty = ZTemplateSummarySchema.parse((await t.http.get('/payg/payments/templates/summary').set(user.auth).expect(200)).body);
      expect(empty).toEqual({ total_templates: 0, average_daily_price: '0.00', customers_on_templates: 0 });
      const [t1] = [await seedTemplate(t, org.id, { daily_price: '50.00' }), await seedTemplate(t, org.id, { daily_price: '25.00' }), await seedTemplate(t, org.id, { daily_price: '30.00' })];
      for (let i = 0; i < 2; i++) {
        const c = await seedCustomer(t, org.id);
        await t.http.post('/payg/payments/templates/assign').set(user.auth).send({ customer_id: c.id, template_id: t1.id }).expect(200);
      }
      const s = ZTemplateSummarySchema.parse((await t.http.get('/payg/payments/templates/summary').set(user.auth).expect(200)).body);
      expect(s).toEqual({ total_templates: 3, average_daily_price: '35.00', customers_on_templates: 2 });
      const other = await seedTenant(t);
      expect((await t.http.get('/payg/payments/templates/summary').set(other.user.auth).expect(200)).body.total_templates).toBe(0);
    });

    it('measures revenue while customers were on a template, days bought, and devices paid up', async () => {
      const { user, org } = await seedTenant(t);
      const plan = await seedTemplate(t, org.id, { template_name: 'Plan A', daily_price: '50.00' });
      const other = await seedTemplate(t, org.id, { template_name: 'Plan B' });
      const unused = await seedTemplate(t, org.id, { template_name: 'Unused' });
      const [amina, brian, chloe] = [await seedCustomer(t, org.id), await seedCustomer(t, org.id), await seedCustomer(t, org.id)];
      const at = (daysAgo: number) => new Date(Date.now() - daysAgo * DAY);
      // Amina: on Plan B from 30 to 10 days ago, then on Plan A.
      await t.db.db.templateAssignment.create({ data: { organization_id: org.id, customer_id: amina.id, template_id: other.id, is_active: false, assigned_at: at(30), ended_at: at(10) } });
      await t.db.db.templateAssignment.create({ data: { organization_id: org.id, customer_id: amina.id, template_id: plan.id, assigned_at: at(10) } });
      await t.db.db.templateAssignment.create({ data: { organization_id: org.id, customer_id: brian.id, template_id: plan.id, assigned_at: at(20) } });
      await t.db.db.templateAssignment.create({ data: { organization_id: org.id, customer_id: chloe.id, template_id: other.id, assigned_at: at(20) } });
      const aminaKit = await seedItem(t, org.id, { customer_id: amina.id });
      const brianKit = await seedItem(t, org.id, { customer_id: brian.id });
      await seedItem(t, org.id, { customer_id: brian.id });
      await t.db.db.item.update({ where: { organization_id_id: { organization_id: org.id, id: aminaKit.id } }, data: { credit_until: at(-3) } });
      await t.db.db.item.update({ where: { organization_id_id: { organization_id: org.id, id: brianKit.id } }, data: { credit_until: at(1) } });
      await recordPayment(t, org.id, { customer_id: amina.id, amount: '400.00', days_bought: 8, paid_at: at(20) }); // on Plan B
      await recordPayment(t, org.id, { customer_id: amina.id, amount: '150.00', days_bought: 3, paid_at: at(5) });
      await recordPayment(t, org.id, { customer_id: brian.id, amount: '100.00', days_bought: 2, paid_at: at(15), status: 'success' });
      await recordPayment(t, org.id, { customer_id: brian.id, amount: '1000.00', days_bought: 20, paid_at: at(2), status: 'pending' });
      await recordPayment(t, org.id, { customer_id: chloe.id, amount: '75.00', days_bought: 1, paid_at: at(1) });

      const all = ZTemplatePerformanceListReplySchema.parse((await t.http.get('/payg/payments/templates/performance').set(user.auth).expect(200)).body);
      expect(all.data.map((p) => p.template_name)).toEqual(['Unused', 'Plan B', 'Plan A']);
      expect(all.data[2]).toEqual({
        template_id: plan.id,
        template_name: 'Plan A',
        currency: 'KES',
        daily_price: '50.00',
        customers_assigned: 2,
        revenue_collected: '250.00',
        payments_count: 2,
        average_days_bought: 2.5,
        devices_assigned: 3,
        devices_paid_up: 1,
        paid_up_share: 0.3333,
      });
      expect(all.data[1]).toMatchObject({ customers_assigned: 1, revenue_collected: '475.00', payments_count: 2, average_days_bought: 4.5 });
      expect(all.data[0]).toMatchObject({ customers_assigned: 0, revenue_collected: '0.00', payments_count: 0, average_days_bought: 0, paid_up_share: 0 });
      const one = ZTemplatePerformanceReplySchema.parse((await t.http.get(`/payg/payments/templates/${plan.id}/performance`).set(user.auth).expect(200)).body);
      expect(one.data).toEqual(all.data[2]);
      expect(unused.id).toBeGreaterThan(0);
      // Another organization sees none of it.
      const stranger = await seedTenant(t);
      expect((await t.http.get('/payg/payments/templates/performance').set(stranger.user.auth).expect(200)).body).toEqual({ data: [] });
      await t.http.get(`/payg/payments/templates/${plan.id}/performance`).set(stranger.user.auth).expect(404);
    });

    it('shows usage: current and past assignments and twelve months of new assignments', async () => {
      const { user, org } = await seedTenant(t);
      const plan = await seedTemplate(t, org.id, { template_name: 'Usage Plan' });
      const other = await seedTemplate(t, org.id);
      const [c1, c2] = [await seedCustomer(t, org.id), await seedCustomer(t, org.id)];
      const now = new Date();
      const monthsAgo = (n: number) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - n, 15));
      await t.db.db.templateAssignment.create({ data: { organization_id: org.id, customer_id: c1.id, template_id: plan.id, is_active: false, assigned_at: monthsAgo(3), ended_at: monthsAgo(2) } });
      await t.db.db.templateAssignment.create({ data: { organization_id: org.id, customer_id: c1.id, template_id: other.id, assigned_at: monthsAgo(2) } });
      await t.db.db.templateAssignment.create({ data: { organization_id: org.id, customer_id: c2.id, template_id: plan.id, assigned_at: monthsAgo(0) } });
      await t.db.db.templateAssignment.create({ data: { organization_id: org.id, customer_id: c2.id, template_id: plan.id, is_active: false, assigned_at: monthsAgo(14), ended_at: monthsAgo(13) } });
      const u = ZTemplateUsageReplySchema.parse((await t.http.get(`/payg/payments/templates/${plan.id}/usage`).set(user.auth).expect(200)).body);
      expect(u.data).toMatchObject({ template_name: 'Usage Plan', active_assignments: 1, ended_assignments: 2, customers_ever: 2 });
      expect(u.data.assignments_by_month).toHaveLength(12);
      const month = (d: Date) => d.toISOString().slice(0, 7);
      expect(u.data.assignments_by_month[11]).toEqual({ month: month(monthsAgo(0)), assignments: 1 });
      expect(u.data.assignments_by_month[8]).toEqual({ month: month(monthsAgo(3)), assignments: 1 });
      expect(u.data.assignments_by_month.reduce((s, m) => s + m.assignments, 0)).toBe(2);
      await t.http.get('/payg/payments/templates/999999/usage').set(user.auth).expect(404);
    });
  });
});
