import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { Prisma } from '../generated/prisma/client.js';
import { DatabaseService } from '../database/database.service.js';
import { MetricSnapshots, SNAPSHOT_REWARM_S } from './metric-snapshots.js';
import { MetricsService, type KeptFigure } from './metrics.service.js';

/** Advisory lock key of a warming run: one process at a time, any process. */
const WARM_LOCK = 7_202_621;
/** The first run, after the API has started. */
const WARM_FIRST_AFTER_MS = 15_000;
/** Later runs: for organizations that have grown past WARM_MIN_DEVICES since. */
const WARM_EVERY_MS = 5 * 60_000;

/**
 * Assigned devices from which an organization's kept dashboard figures are
 * computed before anybody asks for them. The performance figures take about
 * 5 ms per 1,000 assigned devices (4.5 s for 900,000 on the benchmark), so
 * below this they take well under SNAPSHOT_SLOW_MS and are computed live.
 */
export const WARM_MIN_DEVICES = 20_000;

export interface WarmOptions {
  minDevices?: number;
  figures?: KeptFigure[];
}

/**
 * MetricSnapshots keeps the dashboard's slow figures once somebody has asked
 * for them, and from then on serves them at once while refreshing them. The
 * very first request still computed them while the user waited: 4.5 s for
 * the performance figures of 900,000 devices, on the first dashboard of an
 * organization whose devices were imported or migrated in bulk. So shortly after
 * start and every few minutes, one API process (an advisory lock) computes
 * the figures that are not kept yet, or kept longer than SNAPSHOT_REWARM_S
 * (so that none ever gets too old to serve), for every active organization
 * with at least WARM_MIN_DEVICES assigned devices (from item_stats: no scan).
 * Figures that turn out fast are not kept (see MetricSnapshots) and are
 * computed live as before.
 */
@Injectable()
export class DashboardWarmer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('DashboardWarmer');
  private timers: NodeJS.Timeout[] = [];
  private running: Promise<{ organizations: number; kept: number } | null> | null = null;

  constructor(
    private readonly database: DatabaseService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly metrics: MetricsService,
    private readonly snapshots: MetricSnapshots,
  ) {}

  /**
   * One run: the organizations it looked at and the figures kept after it,
   * or null when another process holds the lock.
   */
  warm(options: WarmOptions = {}): Promise<{ organizations: number; kept: number } | null> {
    this.running ??= this.run(options).finally(() => (this.running = null));
    return this.running;
  }

  private async run({ minDevices = WARM_MIN_DEVICES, figures = this.metrics.keptFigures() }: WarmOptions) {
    // A session lock, not a transaction's: computing takes seconds, and a connection idle in a transaction that
    // long may be cut off by the server (idle_in_transaction_session_timeout).
    const client = await this.database.pool.connect();
    let failed: Error | undefined;
    try {
      const { rows: lock } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1) AS locked', [WARM_LOCK]);
      if (!lock[0]?.locked) return null;
      try {
        return await this.warmLarge(minDevices, figures);
      } finally {
        await client.query('SELECT pg_advisory_unlock($1)', [WARM_LOCK]).catch((e: Error) => (failed = e));
      }
    } catch (e) {
      failed = e as Error;
      throw e;
    } finally {
      // A connection that failed is closed rather than handed back to the pool (it may still hold the lock).
      client.release(failed);
    }
  }

  private async warmLarge(minDevices: number, figures: KeptFigure[]): Promise<{ organizations: number; kept: number }> {
    const keys = figures.map((f) => f.key);
    // Large active organizations missing one of the figures, or keeping one about to be too old to serve.
    const orgs = await this.database.query<{ organization_id: string; missing: string[] }>(Prisma.sql`
      SELECT s.organization_id,
             array(SELECT k FROM unnest(${keys}::text[]) k
                   WHERE NOT EXISTS (SELECT 1 FROM metric_snapshots m WHERE m.organization_id = s.organization_id AND m.key = k
                                       AND m.computed_at > now() - make_interval(secs => ${SNAPSHOT_REWARM_S}::int))) AS missing
      FROM item_stats s JOIN organizations o ON o.organization_id = s.organization_id AND o.status = 'active'
      WHERE s.is_assigned
      GROUP BY s.organization_id
      HAVING sum(s.n) >= ${minDevices}::int
      ORDER BY sum(s.n) DESC`);
    let kept = 0;
    for (const org of orgs) {
      for (const figure of figures.filter((f) => org.missing.includes(f.key))) {
        if (await this.snapshots.fill(org.organization_id, figure.key, () => figure.compute(org.organization_id))) kept++;
      }
    }
    return { organizations: orgs.length, kept };
  }

  onApplicationBootstrap(): void {
    // The outbox switch is the background-worker switch: tests warm by hand.
    if (!this.config.outbox.enabled) return;
    const run = () => void this.warm().catch((e) => this.logger.error(`warming the dashboard figures failed: ${(e as Error).message}`));
    const first = setTimeout(run, WARM_FIRST_AFTER_MS);
    const every = setInterval(run, WARM_EVERY_MS);
    first.unref();
    every.unref();
    this.timers = [first, every];
  }

  async onApplicationShutdown(): Promise<void> {
    for (const t of this.timers) clearTimeout(t);
    await this.running?.catch(() => undefined);
  }
}
