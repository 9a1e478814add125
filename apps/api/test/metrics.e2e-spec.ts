import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import {
  ZCustomerMetricsSchema,
  ZItemMetricsSchema,
  ZMetricsSummarySchema,
  ZPaymentMetricsSchema,
  ZPerformanceMetricsSchema,
  ZRevenueSeriesSchema,
  ZUsageMetricsSchema,
} from '@kidogo/contracts';
import { MetricSnapshots, SNAPSHOT_MAX_AGE_S, SNAPSHOT_MAX_STALE_S, SNAPSHOT_REWARM_S, SNAPSHOT_SLOW_MS, SNAPSHOT_WAIT_MAX_MS } from '../src/metrics/metric-snapshots.js';
import { DashboardWarmer } from '../src/metrics/dashboard-warmer.js';
import { MetricsService } from '../src/metrics/metrics.service.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import {
  seedCustomer,
  seedCustomerWithDevice,
  seedItem,
  seedPayment,
  seedRoles,
  seedTenant,
  seedTokenLog,
  type SeededUser,
} from './support/factories.js';
import { businessDay } from './support/business-day.js';

const DAY = 86_400_000;
const daysAgo = (n: number) => new Date(Date.now() - n * DAY);
/** The business day (Africa/Nairobi, the API's default zone) that `d` falls on: what the API's dates mean. */
const isoDay = (d: Date) => businessDay(d);

describe('metrics', () => {
  let t: TestApp;
  let a: SeededUser;
  let empty: SeededUser;

  beforeAll(async () => {
    t = await createTestApp();
    ({ user: a } = await seedTenant(t));
    ({ user: empty } = await seedTenant(t, { role: 'staff' }));
    const org = a.organization_id;

    // Customers: 2 active (one created 30 days ago), 1 inactive, 1 suspended.
    const old = await seedCustomer(t, org, { customer_name: 'Old Timer' });
    await t.db.db.customer.update({ where: { organization_id_id: { organization_id: org, id: old.id } }, data: { created_at: daysAgo(30) } });
    await seedCustomer(t, org, { status: 'inactive' });
    await seedCustomer(t, org, { status: 'suspended' });

    // Device 1: on a 50/day plan, assigned 10 days ago, 300 paid over three payments, credit still running.
    const d1 = await seedCustomerWithDevice(t, org, {
      template: { daily_price: '50.00', free_code_price: '20000.00' },
      item: { product_name: 'Lamp', serial_number: 'SN-M-1' },
    });
    await t.db.db.item.update({
      where: { organization_id_id: { organization_id: org, id: d1.item.id } },
      data: { assigned_at: new Date(Date.now() - 10 * DAY - 3_600_000), credit_until: new Date(Date.now() + 5 * DAY) },
    });
    await seedPayment(t, org, { customer_id: d1.customer.id, item_id: d1.item.id, amount: '100.00', paid_at: daysAgo(20) });
    await seedPayment(t, org, { customer_id: d1.customer.id, item_id: d1.item.id, amount: '100.00', status: 'success', paid_at: daysAgo(10) });
    await seedPayment(t, org, { customer_id: d1.customer.id, item_id: d1.item.id, amount: '100.00', paid_at: daysAgo(4) });
    // Not successful: counted as transactions, not revenue.
    await seedPayment(t, org, { customer_id: d1.customer.id, amount: '999.00', status: 'pending', paid_at: daysAgo(2) });
    await seedPayment(t, org, { customer_id: d1.customer.id, amount: '888.00', status: 'failed', paid_at: daysAgo(1) });

    // Device 2: credit ran out 10 days ago (at risk); device 3 paid off; device 4 in maintenance, unassigned.
    const d2 = await seedCustomerWithDevice(t, org, { item: { product_name: 'Lamp', serial_number: 'SN-M-2' } });
    await t.db.db.item.update({
      where: { organization_id_id: { organization_id: org, id: d2.item.id } },
      data: { credit_until: daysAgo(10) },
    });
    const d3 = await seedItem(t, org, { product_name: 'Solar Kit', serial_number: 'SN-M-3' });
    await t.db.db.item.update({ where: { organization_id_id: { organization_id: org, id: d3.id } }, data: { paid_off_at: new Date() } });
    await seedItem(t, org, { product_name: 'Solar Kit', status: 'maintenance', serial_number: 'SN-M-4' });

    await seedTokenLog(t, org, d1.item, { token_type: 'add_time', days: 2, customer_name: d1.customer.customer_name, created_at: daysAgo(20) });
    await seedTokenLog(t, org, d1.item, { token_type: 'add_time', days: 2, created_at: daysAgo(10) });
    await seedTokenLog(t, org, d2.item, { token_type: 'activation', days: 0, is_valid: false, created_at: daysAgo(1) });
  });
  afterAll(() => t.close());

  const get = (user: SeededUser, path: string) => t.http.get(`/payg/metrics/${path}`).set(user.auth);

  it('reads as zeros for an organization with no data, never null or NaN', async () => {
    expect(ZMetricsSummarySchema.parse((await get(empty, 'summary').expect(200)).body)).toEqual({
      total_revenue: '0.00',
      average_transaction: '0.00',
      transaction_count: 0,
      success_rate: 0,
    });
    expect(ZCustomerMetricsSchema.parse((await get(empty, 'customers').expect(200)).body)).toEqual({
      total: 0, active: 0, inactive: 0, suspended: 0, new_this_week: 0, recent: [],
    });
    expect(ZPaymentMetricsSchema.parse((await get(empty, 'payments').expect(200)).body)).toEqual({
      total_revenue: '0.00', total_payments: 0, successful: 0, pending: 0, failed: 0, recent: [],
    });
    expect(ZItemMetricsSchema.parse((await get(empty, 'items').expect(200)).body)).toEqual({
      total: 0, assigned: 0, unassigned: 0, available: 0, maintenance: 0, retired: 0, assignment_rate: 0, by_product: [],
    });
    const revenue = ZRevenueSeriesSchema.parse((await get(empty, 'revenue').expect(200)).body);
    expect(revenue.points).toHaveLength(30);
    expect(revenue.points.every((p) => p.revenue === '0.00' && p.count === 0)).toBe(true);
    expect(revenue.total_revenue).toBe('0.00');
    expect(ZUsageMetricsSchema.parse((await get(empty, 'usage').expect(200)).body)).toEqual({
      tokens_total: 0, tokens_active: 0, tokens_expired: 0, days_generated: 0, by_type: [], active_devices: 0, expired_devices: 0, recent: [],
    });
    expect(ZPerformanceMetricsSchema.parse((await get(empty, 'performance').expect(200)).body)).toEqual({
      collection_rate: 0, amount_due: '0.00', amount_collected: '0.00', average_days_between_payments: 0,
      paid_off_devices: 0, assigned_devices: 0, devices_at_risk: 0, portfolio_at_risk: 0, as_of: expect.any(String),
    });
  });

  it('summarizes successful payments, counts every payment and gives the success rate as a fraction', async () => {
    const s = ZMetricsSummarySchema.parse((await get(a, 'summary').expect(200)).body);
    expect(s).toEqual({ total_revenue: '300.00', average_transaction: '100.00', transaction_count: 5, success_rate: 0.6 });
    const recent = ZMetricsSummarySchema.parse((await get(a, `summary?from=${isoDay(daysAgo(5))}`).expect(200)).body);
    expect(recent).toEqual({ total_revenue: '100.00', average_transaction: '100.00', transaction_count: 3, success_rate: 0.3333 });
    const bounded = ZMetricsSummarySchema.parse((await get(a, `summary?from=${isoDay(daysAgo(21))}&to=${isoDay(daysAgo(9))}`).expect(200)).body);
    expect(bounded.total_revenue).toBe('200.00');
  });

  it('refuses bad dates with a 400 naming the parameter', async () => {
    const bad = await get(a, 'summary?from=yesterday').expect(400);
    expect(bad.body.message).toMatch(/^from: /);
    expect((await get(a, 'summary?to=2026-02-30').expect(400)).body.message).toMatch(/^to: must be a date/);
    // The last day there is: a period with no end, not a year PostgreSQL cannot read.
    expect(ZMetricsSummarySchema.parse((await get(a, 'summary?to=9999-12-31').expect(200)).body)).toEqual(ZMetricsSummarySchema.parse((await get(a, 'summary').expect(200)).body));
    await get(a, 'revenue?to=9999-12-31').expect(200);
    expect((await get(a, 'revenue?interval=month&from=9997-01-01&to=9999-12-31').expect(400)).body.message).toBe('from: must be before to');
    expect((await get(a, 'summary?from=2026-04-31T00:00:00Z').expect(400)).body.message).toMatch(/^from: must be a date/);
    const reversed = await get(a, 'summary?from=2026-02-01&to=2026-01-01').expect(400);
    expect(reversed.body.message).toMatch(/from: must not be after to/);
    // A bare date as `to` ends with its day: a period that starts that morning is in order, everywhere.
    await get(a, 'summary?from=2026-01-01T08:00:00Z&to=2026-01-01').expect(200);
    await get(a, 'payments?from=2026-01-01T08:00:00Z&to=2026-01-01').expect(200);
    await get(a, 'revenue?from=2026-01-01T08:00:00Z&to=2026-01-01').expect(200);
    expect((await get(a, 'summary?from=2026-01-02T00:00:00Z&to=2026-01-01').expect(400)).body.message).toMatch(/from: must not be after to/);
  });

  it('counts customers by status, new this week, and lists the 3 newest', async () => {
    const c = ZCustomerMetricsSchema.parse((await get(a, 'customers').expect(200)).body);
    // 3 plain customers + 2 with devices.
    expect(c).toMatchObject({ total: 5, active: 3, inactive: 1, suspended: 1, new_this_week: 4 });
    expect(c.recent).toHaveLength(3);
    expect(c.recent.map((r) => r.customer_name)).not.toContain('Old Timer');
    expect(c.recent[0]).toEqual(expect.objectContaining({ phone_contact: expect.any(String), county: 'Nairobi', status: expect.any(String) }));
  });

  it('counts payments by status and lists the newest with customer and device', async () => {
    const p = ZPaymentMetricsSchema.parse((await get(a, 'payments').expect(200)).body);
    expect(p).toMatchObject({ total_revenue: '300.00', total_payments: 5, successful: 3, pending: 1, failed: 1 });
    expect(p.recent).toHaveLength(5);
    expect(p.recent[0]).toMatchObject({ amount: '888.00', status: 'failed', payment_method: 'mobile_money', serial_number: null });
    expect(p.recent.find((r) => r.amount === '100.00')?.serial_number).toBe('SN-M-1');
    expect(p.recent[0].customer_name).toMatch(/^Customer /);
    const two = ZPaymentMetricsSchema.parse((await get(a, 'payments?limit=2').expect(200)).body);
    expect(two.recent).toHaveLength(2);
    await get(a, 'payments?limit=101').expect(400);
  });

  it('lists recent payments newest paid first, whatever order they were recorded in', async () => {
    // Recorded out of order: a cash payment entered days late, an SMS confirmation that arrived late.
    const { user } = await seedTenant(t);
    const org = user.organization_id;
    const paid = [3, 9, 1, 6, 12].map((n) => daysAgo(n));
    const recordedAt = (i: number) => new Date(Date.now() - 60_000 + i * 1000);
    for (const [i, paid_at] of paid.entries()) await seedPayment(t, org, { amount: `${i + 1}00.00`, paid_at, created_at: recordedAt(i) });
    const newestFirst = [...paid].sort((x, y) => y.getTime() - x.getTime()).map((d) => d.toISOString());

    const all = ZPaymentMetricsSchema.parse((await get(user, 'payments').expect(200)).body);
    expect(all.recent.map((r) => r.paid_at)).toEqual(newestFirst);
    // The dashboard's date range picks by paid_at: the list within it is newest paid first too.
    const ranged = ZPaymentMetricsSchema.parse((await get(user, `payments?from=${isoDay(daysAgo(10))}&to=${isoDay(new Date())}&limit=3`).expect(200)).body);
    expect(ranged.recent.map((r) => r.paid_at)).toEqual(newestFirst.slice(0, 3));
  });

  it('counts devices by assignment and status, grouped by product', async () => {
    const i = ZItemMetricsSchema.parse((await get(a, 'items').expect(200)).body);
    expect(i).toMatchObject({ total: 4, assigned: 2, unassigned: 2, available: 1, maintenance: 1, retired: 0, assignment_rate: 0.5 });
    expect(i.by_product).toEqual([
      { product_name: 'Lamp', total: 2, assigned: 2 },
      { product_name: 'Solar Kit', total: 2, assigned: 0 },
    ]);
  });

  it('gives a zero-filled revenue series by day, week and month', async () => {
    const day = ZRevenueSeriesSchema.parse((await get(a, 'revenue').expect(200)).body);
    expect(day.interval).toBe('day');
    expect(day.points).toHaveLength(30);
    expect(day.to).toBe(isoDay(new Date()));
    expect(day.total_revenue).toBe('300.00');
    expect(day.points.find((p) => p.period === isoDay(daysAgo(10)))).toEqual({ period: isoDay(daysAgo(10)), revenue: '100.00', count: 1 });
    expect(day.points.filter((p) => p.count === 0)).toHaveLength(27);

    const month = ZRevenueSeriesSchema.parse((await get(a, 'revenue?interval=month&from=2025-01-15&to=2025-03-02').expect(200)).body);
    expect(month.points.map((p) => p.period)).toEqual(['2025-01-01', '2025-02-01', '2025-03-01']);
    const week = ZRevenueSeriesSchema.parse((await get(a, 'revenue?interval=week&from=2026-01-07&to=2026-01-20').expect(200)).body);
    // ISO weeks start on Monday: 5 Jan, 12 Jan, 19 Jan 2026.
    expect(week.points.map((p) => p.period)).toEqual(['2026-01-05', '2026-01-12', '2026-01-19']);

    // The same payments by week: each week holds the days of the daily series that fall in it.
    const weeks = ZRevenueSeriesSchema.parse((await get(a, `revenue?interval=week&from=${day.from}`).expect(200)).body);
    expect(weeks.total_revenue).toBe(day.total_revenue);
    for (const w of weeks.points) {
      const days = day.points.filter((p) => p.period >= w.period && Date.parse(p.period) < Date.parse(w.period) + 7 * 86_400_000);
      const cents = days.reduce((sum, p) => sum + Math.round(Number(p.revenue) * 100), 0);
      expect({ week: w.period, revenue: w.revenue, count: w.count }).toEqual({
        week: w.period,
        revenue: (cents / 100).toFixed(2),
        count: days.reduce((n, p) => n + p.count, 0),
      });
    }
    expect(weeks.points.filter((w) => w.count > 0).length).toBeGreaterThan(1);

    const tooLong = await get(a, 'revenue?from=2020-01-01&to=2026-01-01').expect(400);
    expect(tooLong.body.message).toMatch(/^from: .*at most 1100 points/);
    await get(a, 'revenue?from=2020-01-01&to=2026-01-01&interval=month').expect(200);
    await get(a, 'revenue?interval=year').expect(400);
  });

  it('reports token usage and device credit', async () => {
    const u = ZUsageMetricsSchema.parse((await get(a, 'usage').expect(200)).body);
    expect(u).toMatchObject({ tokens_total: 3, tokens_active: 2, tokens_expired: 1, days_generated: 4, active_devices: 1, expired_devices: 1 });
    expect(u.by_type).toEqual([
      { token_type: 'add_time', count: 2, days: 4 },
      { token_type: 'activation', count: 1, days: 0 },
    ]);
    expect(u.recent).toHaveLength(3);
    expect(u.recent[0]).toMatchObject({ token_type: 'activation', serial_number: 'SN-M-2', is_valid: false });
    const lastWeek = ZUsageMetricsSchema.parse((await get(a, `usage?from=${isoDay(daysAgo(7))}`).expect(200)).body);
    expect(lastWeek.tokens_total).toBe(1);
  });

  it('measures collection, payment rhythm, paid-off devices and portfolio at risk', async () => {
    const p = ZPerformanceMetricsSchema.parse((await get(a, 'performance').expect(200)).body);
    // Device 1: due 10 days × 50 = 500, 300 paid. Device 2: assigned today, nothing due yet.
    expect(p.amount_due).toBe('500.00');
    expect(p.amount_collected).toBe('300.00');
    expect(p.collection_rate).toBe(0.6);
    // Payments on device 1 were 10 and 6 days apart.
    expect(p.average_days_between_payments).toBeCloseTo(8, 1);
    expect(p).toMatchObject({ paid_off_devices: 1, assigned_devices: 2, devices_at_risk: 1, portfolio_at_risk: 0.5 });
    // Computed for this request (a small portfolio is computed in milliseconds, so it is not kept).
    expect(Date.now() - Date.parse(p.as_of)).toBeLessThan(60_000);
  });

  it('keeps slow figures for a few minutes, serves them while one process computes them again, never past an hour, and never mixes organizations', async () => {
    const snapshots = t.app.get(MetricSnapshots);
    const org = a.organization_id;
    let calls = 0;
    const slow = (value: number) => async () => {
      calls++;
      await new Promise((r) => setTimeout(r, SNAPSHOT_SLOW_MS + 50));
      return { value };
    };
    const first = await snapshots.get(org, 'test-slow', slow(1));
    expect(first.value).toEqual({ value: 1 });
    expect((await snapshots.get(org, 'test-slow', slow(2))).value).toEqual({ value: 1 });
    expect(calls).toBe(1);
    // Another organization computes its own.
    expect((await snapshots.get(empty.organization_id, 'test-slow', slow(3))).value).toEqual({ value: 3 });
    expect(calls).toBe(2);
    // Older than the time it is kept: still served at once, computed again once in the background.
    await t.db.db.metricSnapshot.update({
      where: { organization_id_key: { organization_id: org, key: 'test-slow' } },
      data: { computed_at: new Date(Date.now() - (SNAPSHOT_MAX_AGE_S + 60) * 1000) },
    });
    const stale = await Promise.all([snapshots.get(org, 'test-slow', slow(4)), snapshots.get(org, 'test-slow', slow(5))]);
    expect(stale.map((s) => s.value)).toEqual([{ value: 1 }, { value: 1 }]);
    for (let i = 0; i < 50 && (await snapshots.get(org, 'test-slow', slow(6))).value.value === 1; i++) await new Promise((r) => setTimeout(r, 100));
    expect(calls).toBe(3);
    expect([4, 5]).toContain((await snapshots.get(org, 'test-slow', slow(7))).value.value);
    // Older than an hour (nobody asked all night): computed while the caller waits, never served.
    await t.db.db.metricSnapshot.update({
      where: { organization_id_key: { organization_id: org, key: 'test-slow' } },
      data: { computed_at: new Date(Date.now() - (SNAPSHOT_MAX_STALE_S + 60) * 1000) },
    });
    const morning = await snapshots.get(org, 'test-slow', slow(9));
    expect(morning.value).toEqual({ value: 9 });
    expect(Date.now() - morning.computedAt.getTime()).toBeLessThan(5_000);
    expect((await snapshots.get(org, 'test-slow', slow(10))).value).toEqual({ value: 9 });
    // Unless it takes seconds (a large organization's): then it is served as it is and refreshed behind,
    // the warmer keeping it younger than that (next test).
    await t.db.db.metricSnapshot.update({
      where: { organization_id_key: { organization_id: org, key: 'test-slow' } },
      data: { computed_at: new Date(Date.now() - (SNAPSHOT_MAX_STALE_S + 60) * 1000), took_ms: SNAPSHOT_WAIT_MAX_MS + 1 },
    });
    expect((await snapshots.get(org, 'test-slow', slow(11))).value).toEqual({ value: 9 });
    // Fast figures are not kept.
    expect((await snapshots.get(org, 'test-fast', async () => ({ value: 8 }))).value).toEqual({ value: 8 });
    expect(await t.db.db.metricSnapshot.count({ where: { organization_id: org, key: 'test-fast' } })).toBe(0);
  });

  it('computes the kept figures of large active organizations before anybody asks, once, and only theirs', async () => {
    const warmer = t.app.get(DashboardWarmer);
    // The real figures are the ones the dashboard reads under these keys.
    expect(t.app.get(MetricsService).keptFigures().map((f) => f.key)).toEqual(['performance', 'usage-devices']);
    const org = a.organization_id; // two assigned devices
    const { user: suspended } = await seedTenant(t, { status: 'suspended' });
    await seedCustomerWithDevice(t, suspended.organization_id);
    await seedCustomerWithDevice(t, suspended.organization_id);
    const { user: small } = await seedTenant(t);
    await seedCustomerWithDevice(t, small.organization_id);
    const computed: string[] = [];
    const figures = [
      {
        key: 'test-warm',
        compute: async (orgId: string) => {
          computed.push(orgId);
          await new Promise((r) => setTimeout(r, SNAPSHOT_SLOW_MS + 50));
          return { orgId };
        },
      },
      { key: 'test-warm-fast', compute: async (orgId: string) => ({ orgId }) },
    ];
    // Every organization's (the warmer works across them): straight on the pool.
    const kept = async (key: string) => (await t.db.pool.query('SELECT organization_id, value FROM metric_snapshots WHERE key = $1', [key])).rows;
    const forget = (keys: string[]) => t.db.pool.query('DELETE FROM metric_snapshots WHERE key = ANY($1)', [keys]);

    const run = await warmer.warm({ minDevices: 2, figures });
    // A (two devices) is warmed; the one-device organization and the suspended one are not.
    expect(computed).toEqual([org]);
    expect(await kept('test-warm')).toEqual([{ organization_id: org, value: { orgId: org } }]);
    // A fast figure is computed but not kept: the dashboard computes it live.
    expect(await kept('test-warm-fast')).toEqual([]);
    expect(run).toMatchObject({ kept: 1 });
    expect(run!.organizations).toBeGreaterThanOrEqual(1);
    // What is kept is served to the dashboard's first request without computing it.
    const snapshots = t.app.get(MetricSnapshots);
    expect((await snapshots.get(org, 'test-warm', async () => ({ orgId: 'computed again' }))).value).toEqual({ orgId: org });

    // The next run computes only what is still missing.
    await warmer.warm({ minDevices: 2, figures });
    expect(computed).toEqual([org]);
    // And again what is about to be too old to serve.
    await t.db.pool.query(`UPDATE metric_snapshots SET computed_at = now() - make_interval(secs => $1::int) WHERE key = 'test-warm'`, [SNAPSHOT_REWARM_S + 60]);
    await warmer.warm({ minDevices: 2, figures });
    expect(computed).toEqual([org, org]);
    expect((await t.db.pool.query(`SELECT computed_at > now() - interval '1 minute' AS recent FROM metric_snapshots WHERE key = 'test-warm'`)).rows).toEqual([{ recent: true }]);

    // Another process warming (it holds the lock): this one does nothing. (A connection of its own: a pooled one
    // may be the warmer's, and a session's advisory locks are its own to take again.)
    const other = new pg.Client({ connectionString: t.databaseUrl });
    await other.connect();
    try {
      await other.query('BEGIN');
      // (The runs above let go of it.)
      expect((await other.query('SELECT pg_try_advisory_xact_lock(7202621) AS locked')).rows[0].locked).toBe(true);
      await forget(['test-warm']);
      expect(await warmer.warm({ minDevices: 2, figures })).toBeNull();
      expect(computed).toEqual([org, org]);
    } finally {
      await other.query('ROLLBACK');
      await other.end();
    }
    await warmer.warm({ minDevices: 2, figures });
    expect(computed).toEqual([org, org, org]);
    await forget(['test-warm', 'test-warm-fast']);
  });

  it("shows another organization none of A's data", async () => {
    const { user: b } = await seedTenant(t);
    await seedCustomer(t, b.organization_id);
    const s = ZMetricsSummarySchema.parse((await get(b, 'summary').expect(200)).body);
    expect(s.transaction_count).toBe(0);
    const c = ZCustomerMetricsSchema.parse((await get(b, 'customers').expect(200)).body);
    expect(c.total).toBe(1);
    const p = ZPaymentMetricsSchema.parse((await get(b, 'payments').expect(200)).body);
    expect(p.recent).toEqual([]);
    expect(ZItemMetricsSchema.parse((await get(b, 'items').expect(200)).body).total).toBe(0);
    expect(ZUsageMetricsSchema.parse((await get(b, 'usage').expect(200)).body).recent).toEqual([]);
    expect(ZRevenueSeriesSchema.parse((await get(b, 'revenue').expect(200)).body).total_revenue).toBe('0.00');
    expect(ZPerformanceMetricsSchema.parse((await get(b, 'performance').expect(200)).body).assigned_devices).toBe(0);
  });

  it('is open to every role of the organization and closed without a token', async () => {
    const r = await seedRoles(t);
    for (const user of [r.owner, r.admin, r.staff, r.superAdmin]) {
      for (const path of ['summary', 'customers', 'payments', 'items', 'revenue', 'usage', 'performance']) {
        await get(user, path).expect(200);
      }
    }
    await t.http.get('/payg/metrics/summary').expect(401);
  });
});
