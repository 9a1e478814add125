import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { DatabaseService } from '../database/database.service.js';

/** Advisory lock key of the compaction: one process at a time, any process. */
const COMPACT_LOCK = 7_202_620;
const COMPACT_EVERY_MS = 10_000;

/** Each totals table with the columns that name one total and the ones that add up. */
const TABLES = [
  { table: 'customer_stats', keys: ['organization_id', 'day', 'status'], sums: ['n'] },
  { table: 'item_stats', keys: ['organization_id', 'is_assigned', 'status', 'product_name', 'location_id'], sums: ['n'] },
  { table: 'payment_stats', keys: ['organization_id', 'day', 'status'], sums: ['n', 'amount'] },
  { table: 'token_stats', keys: ['organization_id', 'day', 'token_type', 'is_valid'], sums: ['n', 'days'] },
  { table: 'promise_stats', keys: ['organization_id', 'promised_on', 'kind'], sums: ['n'] },
] as const;

/** Folds every key's delta rows into one row, dropping totals that came back to zero; one statement per table. */
function compactSql({ table, keys, sums }: (typeof TABLES)[number]): string {
  const k = keys.join(', ');
  // location_id may be null (a device in no stock location): null keys are the same total too.
  const on = keys.map((c) => (c === 'location_id' ? `s.${c} IS NOT DISTINCT FROM d.${c}` : `s.${c} = d.${c}`)).join(' AND ');
  const zero = sums.map((c) => `sum(${c}) = 0`).join(' AND ');
  return `
    WITH d AS (
      SELECT ${k} FROM ${table} GROUP BY ${k} HAVING count(*) > 1 OR (${zero})
    ), gone AS (
      DELETE FROM ${table} s USING d WHERE ${on} RETURNING s.*
    )
    INSERT INTO ${table} (${k}, ${sums.join(', ')})
    SELECT ${k}, ${sums.map((c) => `sum(${c})`).join(', ')} FROM gone GROUP BY ${k} HAVING NOT (${zero})`;
}

/**
 * Keeps the totals tables (customer_stats, item_stats, payment_stats,
 * token_stats, promise_stats) small, and forgets kept search totals (list_counts) unused
 * for an hour. Triggers add delta rows with every change; readers
 * sum them, so the totals are exact at any moment, and this compaction
 * only keeps the sums cheap: every 10 s one API process (whichever gets the
 * advisory lock; several can run) folds each total's rows into one. Rows
 * added meanwhile by open transactions are not visible to its DELETE, so
 * they stay and are folded next time.
 */
@Injectable()
export class StatsService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Stats');
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;

  constructor(
    private readonly database: DatabaseService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Folds the delta rows; returns how many rows were folded (0 when another process holds the lock). */
  compact(): Promise<number> {
    this.running ??= this.run().finally(() => (this.running = null));
    return this.running;
  }

  private async run(): Promise<number> {
    const client = await this.database.pool.connect();
    try {
      await client.query('BEGIN');
      const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_xact_lock($1) AS locked', [COMPACT_LOCK]);
      let folded = 0;
      if (rows[0]?.locked) {
        for (const t of TABLES) folded += (await client.query(compactSql(t))).rowCount ?? 0;
        // Kept search totals nobody asked for in an hour (one per search term).
        await client.query(`DELETE FROM list_counts WHERE counted_at < now() - interval '1 hour'`);
      }
      await client.query('COMMIT');
      return folded;
    } catch (e) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw e;
    } finally {
      client.release();
    }
  }

  onApplicationBootstrap(): void {
    // The outbox switch is the background-worker switch: tests compact by hand.
    if (!this.config.outbox.enabled) return;
    this.timer = setInterval(
      () => void this.compact().catch((e) => this.logger.error(`compaction failed: ${(e as Error).message}`)),
      COMPACT_EVERY_MS,
    );
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running?.catch(() => undefined);
  }
}
