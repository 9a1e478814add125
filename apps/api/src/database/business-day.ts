import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import pg from 'pg';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { MIGRATION_LOCK } from './migrator.js';

/** The zone of totals that no start has rebuilt yet: 0006 built them in UTC days. */
const BUILT_BEFORE = 'UTC';

const literal = (s: string) => `'${s.replace(/'/g, "''")}'`;

/** The bodies of the two day functions for `zone` (as pg_proc.prosrc keeps them, so a start can tell whether they are current). */
function bodies(zone: string): { day: string; start: string } {
  const z = literal(zone);
  const at = `($1::timestamp AT TIME ZONE ${z})`;
  const earlier = ['2 hours', '1 hour', '30 minutes']
    .map((back) => `\n    WHEN kidogo_day(${at} - interval '${back}') >= $1 THEN ${at} - interval '${back}'`)
    .join('');
  return {
    day: ` SELECT ($1 AT TIME ZONE ${z})::date `,
    start: ` SELECT CASE${earlier}\n    ELSE $1::timestamp AT TIME ZONE ${z} END `,
  };
}

/** The promises per promised day and kind (0033_promise_stats): a kept promise is one paid by the end of its business day. */
export const PROMISE_STATS_REBUILD = [
  `DELETE FROM promise_stats`,
  `INSERT INTO promise_stats (organization_id, promised_on, kind, n)
   SELECT organization_id, promised_on, k, count(*)::int
   FROM (SELECT organization_id, promised_on, kidogo_promise_kind(outcome, superseded, promised_on, paid_at) AS k
         FROM collection_contacts) r
   WHERE k IS NOT NULL GROUP BY 1, 2, 3`,
];

/** Each daily totals table, rebuilt from its rows as 0006 first built it. */
const REBUILD = [
  `DELETE FROM customer_stats`,
  `INSERT INTO customer_stats (organization_id, day, status, n)
   SELECT organization_id, kidogo_day(created_at), status, count(*)::int FROM customers GROUP BY 1, 2, 3`,
  `DELETE FROM payment_stats`,
  `INSERT INTO payment_stats (organization_id, day, status, n, amount)
   SELECT organization_id, kidogo_day(paid_at), status, count(*)::int, sum(amount) FROM payments GROUP BY 1, 2, 3`,
  `DELETE FROM token_stats`,
  `INSERT INTO token_stats (organization_id, day, token_type, is_valid, n, days)
   SELECT organization_id, kidogo_day(created_at), token_type, is_valid, count(*)::int, sum(days_generated)
   FROM token_logs GROUP BY 1, 2, 3, 4`,
  ...PROMISE_STATS_REBUILD,
];

export interface BusinessDayState {
  /** The zone the totals were in before this start. */
  previous: string;
  /** Whether the totals were rebuilt, and how long that took. */
  rebuilt: boolean;
  ms: number;
}

/**
 * Makes PostgreSQL's business day the one of `zone`: kidogo_day() and
 * kidogo_day_start() (which the totals' triggers and the API's partial days
 * use) get the zone written into them, and when the daily totals were built
 * in another zone (_kidogo_time_zone), they are rebuilt from the rows. All in
 * one transaction, with the counted tables' writers held back (SHARE locks:
 * reads go on, and see the old totals until the new ones are complete),
 * under the migrations' advisory lock, so several processes starting
 * together do it once. Nothing is written when everything is current.
 */
export async function installBusinessDay(databaseUrl: string, zone: string, log: (s: string) => void = () => {}): Promise<BusinessDayState> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      await client.query('SELECT now() AT TIME ZONE $1', [zone]);
    } catch (e) {
      throw new Error(`TIME_ZONE ${zone} is not a time zone this PostgreSQL knows (${(e as Error).message})`, { cause: e });
    }
    const want = bodies(zone);
    const { rows } = await client.query<{ day: string | null; start: string | null; built: string | null }>(`
      SELECT (SELECT prosrc FROM pg_proc WHERE proname = 'kidogo_day' AND pronamespace = 'public'::regnamespace) AS day,
             (SELECT prosrc FROM pg_proc WHERE proname = 'kidogo_day_start' AND pronamespace = 'public'::regnamespace) AS start,
             (SELECT time_zone FROM "_kidogo_time_zone") AS built`);
    const current = rows[0]!;
    const previous = current.built ?? BUILT_BEFORE;
    const rebuild = previous !== zone;
    if (!rebuild && current.day === want.day && current.start === want.start) return { previous, rebuilt: false, ms: 0 };

    const started = Date.now();
    if (rebuild) log(`TIME_ZONE is ${zone}, the daily totals are in ${previous} days: rebuilding them from the rows`);
    await client.query('BEGIN');
    try {
      await client.query('LOCK TABLE customers, payments, token_logs, collection_contacts IN SHARE MODE');
      await client.query(`CREATE OR REPLACE FUNCTION kidogo_day(timestamptz) RETURNS date
        LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$${want.day}$$`);
      await client.query(`CREATE OR REPLACE FUNCTION kidogo_day_start(date) RETURNS timestamptz
        LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$${want.start}$$`);
      if (rebuild) {
        for (const sql of REBUILD) await client.query(sql);
        await client.query(
          `INSERT INTO "_kidogo_time_zone" (one, time_zone, built_at) VALUES (true, $1, now())
           ON CONFLICT (one) DO UPDATE SET time_zone = EXCLUDED.time_zone, built_at = EXCLUDED.built_at`,
          [zone],
        );
      }
      await client.query('COMMIT');
    } catch (e) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw e;
    }
    const ms = Date.now() - started;
    if (rebuild) log(`rebuilt the daily totals in ${zone} days in ${ms} ms`);
    return { previous, rebuilt: rebuild, ms };
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    await client.end();
  }
}

/** Installs the configured business day before the application serves anything (or writes: the demo seed, the workers). */
@Injectable()
export class BusinessDayService implements OnModuleInit {
  private readonly logger = new Logger('BusinessDay');

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  async onModuleInit(): Promise<void> {
    await installBusinessDay(this.config.databaseUrl!, this.config.timeZone, (s) => this.logger.log(s));
  }
}
