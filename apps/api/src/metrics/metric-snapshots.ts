import { Injectable, Logger } from '@nestjs/common';
import { Prisma } from '../generated/prisma/client.js';
import { DatabaseService } from '../database/database.service.js';

/** Figures that take at least this long to compute are kept; faster ones are computed for every request. */
export const SNAPSHOT_SLOW_MS = 200;
/** A kept figure is served for this long, then computed again in the background while still served. */
export const SNAPSHOT_MAX_AGE_S = 300;
/**
 * Older than this, a kept figure is not served: it is computed again while
 * the caller waits. Serving while refreshing bounds the age by the time
 * since the last request, which after a quiet night is the night: the first
 * dashboard of the morning would show yesterday's figures.
 */
export const SNAPSHOT_MAX_STALE_S = 3600;
/**
 * A figure that took longer than this to compute is not waited for even
 * past SNAPSHOT_MAX_STALE_S (a large organization's performance figures take
 * seconds): it is served with its `as_of` and refreshed behind, and
 * DashboardWarmer computes such figures again before they get that old.
 */
export const SNAPSHOT_WAIT_MAX_MS = 1000;
/** DashboardWarmer computes a kept figure again once it is this old, so that it never reaches SNAPSHOT_MAX_STALE_S. */
export const SNAPSHOT_REWARM_S = SNAPSHOT_MAX_STALE_S - 15 * 60;
/** Keys of figures kept for reports, one per report and period (ReportsService). */
export const REPORT_KEY_PREFIX = 'report.';
/** A report's kept figures not worked out again for this long are dropped when another is kept. */
export const REPORT_KEPT_S = 86_400;
/** A refresh claimed by a process that died is claimed again after this long. */
const REFRESH_LEASE_S = 600;

/**
 * Dashboard figures that cost seconds on a large portfolio (every device,
 * a year of payments), kept in metric_snapshots so that the dashboard
 * stays fast: up to SNAPSHOT_MAX_AGE_S old, then still served while the one
 * process that claims the refresh (a conditional UPDATE, so with any
 * number of API processes only one computes) computes them again after
 * replying, and past SNAPSHOT_MAX_STALE_S computed while the caller waits
 * (unless it takes seconds: see SNAPSHOT_WAIT_MAX_MS). Only figures slower than SNAPSHOT_SLOW_MS are kept, so a small
 * organization always sees them live. The caller reports `computedAt`.
 */
@Injectable()
export class MetricSnapshots {
  private readonly logger = new Logger('MetricSnapshots');

  constructor(private readonly database: DatabaseService) {}

  /**
   * The figure `key`, kept when slow and served up to `maxAgeS` seconds old (see the class). A report's figures
   * (`waitWhenOld`) are never served older than that: someone who runs a report again the next day waits for
   * today's figures, where a dashboard shows yesterday's while today's are worked out.
   */
  async get<T>(
    orgId: string,
    key: string,
    compute: () => Promise<T>,
    maxAgeS = SNAPSHOT_MAX_AGE_S,
    { waitWhenOld = false }: { waitWhenOld?: boolean } = {},
  ): Promise<{ value: T; computedAt: Date }> {
    const [kept] = await this.database.prepared<{ value: T; computed_at: Date; fresh: boolean; servable: boolean }>(Prisma.sql`
      SELECT value, computed_at, computed_at > now() - make_interval(secs => ${maxAgeS}::int) AS fresh,
             computed_at > now() - make_interval(secs => ${SNAPSHOT_MAX_STALE_S}::int) OR took_ms > ${SNAPSHOT_WAIT_MAX_MS}::int AS servable
      FROM metric_snapshots WHERE organization_id = ${orgId} AND key = ${key}`);
    if (kept?.fresh) return { value: kept.value, computedAt: kept.computed_at };
    if (kept && (!kept.servable || waitWhenOld)) return this.compute(orgId, key, compute, true);
    if (kept) {
      const claimed = await this.database.prepared(Prisma.sql`
        UPDATE metric_snapshots SET refreshing_at = now()
        WHERE organization_id = ${orgId} AND key = ${key}
          AND (refreshing_at IS NULL OR refreshing_at < now() - make_interval(secs => ${REFRESH_LEASE_S}::int))
        RETURNING 1`);
      if (claimed.length) {
        void this.compute(orgId, key, compute, true).catch((e) => this.logger.error(`${key} of ${orgId} could not be computed: ${(e as Error).message}`));
      }
      return { value: kept.value, computedAt: kept.computed_at };
    }
    return this.compute(orgId, key, compute, false);
  }

  /**
   * Computes the figure `key` now and keeps it when slow, unless it is kept
   * already and younger than SNAPSHOT_REWARM_S (see DashboardWarmer): whether
   * it is kept afterwards.
   */
  async fill(orgId: string, key: string, compute: () => Promise<unknown>): Promise<boolean> {
    const [present] = await this.database.prepared<{ recent: boolean }>(Prisma.sql`
      SELECT computed_at > now() - make_interval(secs => ${SNAPSHOT_REWARM_S}::int) AS recent
      FROM metric_snapshots WHERE organization_id = ${orgId} AND key = ${key}`);
    return present?.recent === true || (await this.compute(orgId, key, compute, present !== undefined)).stored;
  }

  /** Computes the figure, and keeps it when slow (`stored`), or forgets a kept one that has become fast. */
  private async compute<T>(orgId: string, key: string, compute: () => Promise<T>, kept: boolean): Promise<{ value: T; computedAt: Date; stored: boolean }> {
    const computedAt = new Date();
    const value = await compute();
    const took = Date.now() - computedAt.getTime();
    if (took >= SNAPSHOT_SLOW_MS) {
      await this.database.prepared(Prisma.sql`
        INSERT INTO metric_snapshots (organization_id, key, value, computed_at, took_ms, refreshing_at)
        VALUES (${orgId}, ${key}, ${JSON.stringify(value)}::jsonb, ${computedAt.toISOString()}::timestamptz, ${took}::int, NULL)
        ON CONFLICT (organization_id, key) DO UPDATE
        SET value = excluded.value, computed_at = excluded.computed_at, took_ms = excluded.took_ms, refreshing_at = NULL`);
      // A report's figures are kept under its period, and periods move on with the days: those of a day ago go.
      if (key.startsWith(REPORT_KEY_PREFIX)) {
        await this.database.prepared(Prisma.sql`
          DELETE FROM metric_snapshots
          WHERE organization_id = ${orgId} AND key LIKE ${`${REPORT_KEY_PREFIX}%`} AND computed_at < now() - make_interval(secs => ${REPORT_KEPT_S}::int)`);
      }
    } else if (kept) {
      // Fast again (devices were removed): live from now on.
      await this.database.prepared(Prisma.sql`DELETE FROM metric_snapshots WHERE organization_id = ${orgId} AND key = ${key}`);
    }
    return { value, computedAt, stored: took >= SNAPSHOT_SLOW_MS };
  }
}
