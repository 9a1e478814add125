import { Prisma } from '../generated/prisma/client.js';
import type { Runs } from '../database/database.service.js';

/** Counts at or above this many rows are kept in list_counts; smaller ones are counted every time. */
export const CACHED_COUNT_MIN_ROWS = 100;
/** How long a kept count is served before one request counts again. */
export const CACHED_COUNT_TTL_S = 15;

/**
 * The total of a searched list. Counting a search that matches 100,000
 * customers reads 100,000 index entries and rows (tens of milliseconds),
 * which paging through the results would repeat on every page. So a count
 * of CACHED_COUNT_MIN_ROWS or more is kept in list_counts (PostgreSQL, so
 * every API process shares it) and served for CACHED_COUNT_TTL_S seconds:
 * a total up to that old, while the rows of each page are always read
 * live. When it expires, the one request that claims the row (a single
 * conditional UPDATE) counts again; requests meanwhile keep the previous
 * total instead of all counting at once. Smaller counts are always exact
 * and current. The list_counts statements are prepared; the count itself,
 * a search, is planned for its pattern every time.
 */
export async function countCached({ query, prepared }: Runs, orgId: string, list: string, key: string, count: Prisma.Sql): Promise<number> {
  const k = key.slice(0, 300);
  const [kept] = await prepared<{ total: number; fresh: boolean }>(Prisma.sql`
    SELECT total, counted_at > now() - make_interval(secs => ${CACHED_COUNT_TTL_S}::int) AS fresh
    FROM list_counts WHERE organization_id = ${orgId} AND list = ${list} AND key = ${k}`);
  if (kept?.fresh) return kept.total;
  if (kept) {
    const claimed = await prepared(Prisma.sql`
      UPDATE list_counts SET counted_at = now()
      WHERE organization_id = ${orgId} AND list = ${list} AND key = ${k}
        AND counted_at <= now() - make_interval(secs => ${CACHED_COUNT_TTL_S}::int)
      RETURNING 1`);
    if (!claimed.length) return kept.total;
  }
  const [{ total }] = await query<{ total: number }>(count);
  if (total >= CACHED_COUNT_MIN_ROWS) {
    await prepared(Prisma.sql`
      INSERT INTO list_counts (organization_id, list, key, total, counted_at) VALUES (${orgId}, ${list}, ${k}, ${total}::int, now())
      ON CONFLICT (organization_id, list, key) DO UPDATE SET total = excluded.total, counted_at = excluded.counted_at`);
  } else if (kept) {
    await prepared(Prisma.sql`DELETE FROM list_counts WHERE organization_id = ${orgId} AND list = ${list} AND key = ${k}`);
  }
  return total;
}
