import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { ZMetricsSummarySchema, ZReportSchema, ZRevenueSeriesSchema } from '@kidogo/contracts';
import { Calendar, dayNumber } from '../src/common/calendar.js';
import { installBusinessDay } from '../src/database/business-day.js';
import { isoDayOf } from '../src/metrics/period.js';
import { StatsService } from '../src/stats/stats.service.js';
import { createTestApp, createTestDatabase, type TestApp } from './support/test-app.js';
import { seedCustomerWithDevice, seedTenant, type SeededUser } from './support/factories.js';

/**
 * The business day: every day, week and month the API counts is one of
 * TIME_ZONE's (Africa/Nairobi, UTC+3, unless set). Payments at 21:30 and
 * 23:30 UTC on 10 March are 00:30 and 02:30 on 11 March in Nairobi, and one
 * at 22:00 UTC on 30 September is 01:00 on 1 October there.
 */
const PAYMENTS = [
  { paid_at: '2026-03-10T12:00:00Z', amount: 100 }, // 15:00 on 10 March in Nairobi
  { paid_at: '2026-03-10T21:30:00Z', amount: 20 }, // 00:30 on 11 March
  { paid_at: '2026-03-10T23:30:00Z', amount: 3 }, // 02:30 on 11 March
  { paid_at: '2026-09-30T20:30:00Z', amount: 4000 }, // 23:30 on 30 September
  { paid_at: '2026-09-30T22:00:00Z', amount: 500 }, // 01:00 on 1 October
];

interface Figures {
  day10: string;
  day11: string;
  lateOn11: string;
  daily: Record<string, string>;
  monthly: Record<string, string>;
  report: Record<string, string>;
}

/** What the dashboard and the revenue report say about PAYMENTS' days and months, over HTTP. */
async function figures(t: TestApp, user: SeededUser): Promise<Figures> {
  const get = async (path: string) => (await t.http.get(`/payg/metrics/${path}`).set(user.auth).expect(200)).body;
  const revenue = async (from: string, to: string) => ZMetricsSummarySchema.parse(await get(`summary?from=${from}&to=${to}`)).total_revenue;
  const points = (body: unknown) =>
    Object.fromEntries(ZRevenueSeriesSchema.parse(body).points.filter((p) => p.count > 0).map((p) => [p.period, p.revenue]));
  const report = ZReportSchema.parse(
    (await t.http.post('/payg/reports/page').set(user.auth).send({ report: 'revenue', from: '2026-09-01', to: '2026-10-31' }).expect(200)).body,
  );
  return {
    day10: await revenue('2026-03-10', '2026-03-10'),
    day11: await revenue('2026-03-11', '2026-03-11'),
    // From 01:00 on 11 March in Nairobi to the end of that day: a partial day, read from the rows.
    lateOn11: await revenue('2026-03-10T22:00:00Z', '2026-03-11'),
    daily: points(await get('revenue?interval=day&from=2026-03-09&to=2026-03-12')),
    monthly: points(await get('revenue?interval=month&from=2026-09-01&to=2026-10-31')),
    report: Object.fromEntries(report.rows.map((r) => [r.month, r.revenue as string])),
  };
}

const NAIROBI: Figures = {
  day10: '100.00',
  day11: '23.00',
  lateOn11: '3.00',
  daily: { '2026-03-10': '100.00', '2026-03-11': '23.00' },
  monthly: { '2026-09-01': '4000.00', '2026-10-01': '500.00' },
  report: { '2026-09': '4000.00', '2026-10': '500.00' },
};

const UTC: Figures = {
  day10: '123.00',
  day11: '0.00',
  lateOn11: '3.00', // 23:30Z on the 10th, after 22:00Z
  daily: { '2026-03-10': '123.00' },
  monthly: { '2026-09-01': '4500.00' },
  report: { '2026-09': '4500.00', '2026-10': '0.00' },
};

async function seedPayments(t: TestApp) {
  const { user, org } = await seedTenant(t);
  const { item } = await seedCustomerWithDevice(t, org.id);
  for (const p of PAYMENTS) {
    await t.http.post('/payg/payments').set(user.auth).send({ serial_number: item.serial_number, payment_method: 'cash', ...p }).expect(201);
  }
  return user;
}

async function sql<T>(url: string, text: string, values: unknown[] = []): Promise<T[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(text, values)).rows as T[];
  } finally {
    await c.end();
  }
}

describe('the business day', () => {
  describe('in Nairobi (the default)', () => {
    let t: TestApp;
    let user: SeededUser;
    beforeAll(async () => {
      t = await createTestApp();
      user = await seedPayments(t);
    });
    afterAll(() => t.close());

    it('puts payments on the Nairobi day and month: the summary of a day, the revenue by day and month, the revenue report', async () => {
      expect(await figures(t, user)).toEqual(NAIROBI);
      // The same once the totals' delta rows are folded.
      await t.app.get(StatsService).compact();
      expect(await figures(t, user)).toEqual(NAIROBI);
      const days = await sql<{ day: string; n: number }>(
        t.databaseUrl,
        `SELECT to_char(day, 'YYYY-MM-DD') AS day, sum(n)::int AS n FROM payment_stats WHERE organization_id = $1 GROUP BY 1 ORDER BY 1`,
        [user.organization_id],
      );
      expect(days).toEqual([
        { day: '2026-03-10', n: 1 },
        { day: '2026-03-11', n: 2 },
        { day: '2026-09-30', n: 1 },
        { day: '2026-10-01', n: 1 },
      ]);
    });

    it('lists a bare date\'s payments from its Nairobi midnight to the next', async () => {
      const list = (await t.http.get('/payg/payments?from=2026-03-11&to=2026-03-11').set(user.auth).expect(200)).body;
      expect(list.data.map((p: { paid_at: string }) => p.paid_at).sort()).toEqual(['2026-03-10T21:30:00.000Z', '2026-03-10T23:30:00.000Z']);
      expect(list.pagination.total).toBe(2);
    });

    it('answers a period whose ends are out of order in Nairobi with a 400, and takes one that is in order there', async () => {
      // 2026-03-11 starts at 2026-03-10T21:00Z in Nairobi: 22:00Z on the 10th is already on it.
      await t.http.get('/payg/metrics/summary?from=2026-03-11&to=2026-03-10T22:00:00Z').set(user.auth).expect(200);
      const late = await t.http.get('/payg/metrics/summary?from=2026-03-11T21:00:00Z&to=2026-03-11').set(user.auth).expect(400);
      expect(late.body.message).toBe('from: must not be after to');
    });
  });

  describe('with TIME_ZONE=UTC', () => {
    let t: TestApp;
    afterAll(() => t?.close());

    it('counts UTC days as before, and a restart in another zone rebuilds the totals so the figures follow it', async () => {
      t = await createTestApp({ env: { TIME_ZONE: 'UTC' } });
      const user = await seedPayments(t);
      expect(await figures(t, user)).toEqual(UTC);
      const url = t.databaseUrl;
      // A promise to pay on 10 March, logged that afternoon and first paid at 21:30Z: on the promised day in UTC
      // (kept), on the 11th in Nairobi (late).
      await sql(url, `
        INSERT INTO collection_contacts (organization_id, item_id, customer_id, outcome, promised_on, created_at, paid_at, paid_amount)
        SELECT organization_id, item_id, customer_id, 'promised_to_pay', '2026-03-10', '2026-03-10T13:00:00Z', '2026-03-10T21:30:00Z', 20
        FROM items WHERE organization_id = $1`, [user.organization_id]);
      const promiseKinds = () =>
        sql(url, `SELECT kind, sum(n)::int AS n FROM promise_stats WHERE organization_id = $1 GROUP BY 1 HAVING sum(n) <> 0`, [user.organization_id]);
      expect(await promiseKinds()).toEqual([{ kind: 'kept', n: 1 }]);
      await t.close();

      // The same database, started in Nairobi: the totals built in UTC days are rebuilt in Nairobi's.
      t = await createTestApp({ databaseUrl: url });
      expect(await sql(url, `SELECT time_zone FROM "_kidogo_time_zone"`)).toEqual([{ time_zone: 'Africa/Nairobi' }]);
      expect(await figures(t, user)).toEqual(NAIROBI);
      expect(await promiseKinds()).toEqual([{ kind: 'late', n: 1 }]);
      // Written after the restart: filed under Nairobi's day by the triggers.
      const { item } = await seedCustomerWithDevice(t, user.organization_id);
      await t.http.post('/payg/payments').set(user.auth).send({ serial_number: item.serial_number, payment_method: 'cash', amount: 7, paid_at: '2026-03-11T22:30:00Z' }).expect(201);
      const day12 = await t.http.get('/payg/metrics/summary?from=2026-03-12&to=2026-03-12').set(user.auth).expect(200);
      expect(day12.body.total_revenue).toBe('7.00');
      // Current now: another start (or another process) changes nothing.
      expect(await installBusinessDay(url, 'Africa/Nairobi')).toEqual({ previous: 'Africa/Nairobi', rebuilt: false, ms: 0 });
      await t.close();

      // And back to UTC, where the payment at 22:30Z is on the 11th.
      t = await createTestApp({ databaseUrl: url, env: { TIME_ZONE: 'UTC' } });
      expect(await figures(t, user)).toEqual({ ...UTC, day11: '7.00', lateOn11: '10.00', daily: { ...UTC.daily, '2026-03-11': '7.00' } });
      expect(await promiseKinds()).toEqual([{ kind: 'kept', n: 1 }]);
    });
  });

  it('refuses to start with a time zone it does not know, naming TIME_ZONE', async () => {
    await expect(createTestApp({ env: { TIME_ZONE: 'Africa/Nairobbi' } })).rejects.toThrow(
      'TIME_ZONE: TIME_ZONE must be an IANA time zone name such as Africa/Nairobi, Africa/Kampala or UTC (got "Africa/Nairobbi")',
    );
    const url = await createTestDatabase();
    await expect(installBusinessDay(url, 'Mars/Olympus')).rejects.toThrow(/^TIME_ZONE Mars\/Olympus is not a time zone this PostgreSQL knows/);
  });

  it('agrees with PostgreSQL on every hour\'s day and every day\'s first instant, daylight saving and skipped or repeated midnights included', async () => {
    const url = await createTestDatabase();
    for (const zone of ['Africa/Nairobi', 'Asia/Kolkata', 'America/New_York', 'America/Santiago', 'America/Havana', 'Australia/Lord_Howe', 'Pacific/Kiritimati']) {
      await installBusinessDay(url, zone);
      const c = new Calendar(zone);
      const hours = await sql<{ t: Date; day: string }>(
        url,
        `SELECT t, to_char(kidogo_day(t), 'YYYY-MM-DD') AS day
         FROM generate_series('2022-01-01T00:00:00Z'::timestamptz, '2023-01-01T00:00:00Z', interval '30 minutes') t`,
      );
      const days = await sql<{ day: string; start: Date }>(
        url,
        `SELECT to_char(d, 'YYYY-MM-DD') AS day, kidogo_day_start(d::date) AS start FROM generate_series('2022-01-01'::date, '2022-12-31', interval '1 day') d`,
      );
      const wrong = [
        ...hours.filter((h) => isoDayOf(c.dayOf(h.t)) !== h.day).map((h) => `${zone} ${h.t.toISOString()}: ${h.day}`),
        ...days.filter((d) => c.startOf(dayNumber(d.day)).getTime() !== d.start.getTime()).map((d) => `${zone} ${d.day} starts ${d.start.toISOString()}`),
      ];
      expect(wrong.slice(0, 5)).toEqual([]);
    }
  });
});
