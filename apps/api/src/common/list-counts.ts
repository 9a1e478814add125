import { Prisma } from '../generated/prisma/client.js';
import type { Runs } from '../database/database.service.js';

/** Counts at or above this many rows are kept in list_counts; smaller ones are counted every time. */
export const CACHED_COUNT_MIN_ROWS = 100;
/** How long a kept count is served before one request counts again. */
export const CACHED_COUNT_TTL_S = 15;

/** The column searchPage's counted page adds to each row: the number of matches. */
export const MATCHES_COLUMN = 'matches_total';

/** A kept total and the size of the list it was counted in (null when the list gives none). */
export interface KeptCount {
  total: number;
  size: number | null;
}

/**
 * A page's statement: planned for its values (see Runs), or `{ prepared }`
 * when its text is fixed and its parameters are keys, numbers or a term no
 * plan depends on.
 */
export type PageStatement = Prisma.Sql | { prepared: Prisma.Sql };

export interface SearchPageSql {
  /** `SELECT count(*)::int AS total ...` over every match. */
  count: Prisma.Sql;
  /**
   * The page: the matches in list order, LIMIT and OFFSET applied; given the
   * kept total, where the best way to read it depends on how many rows match
   * and how densely.
   */
  page: PageStatement | ((kept: KeptCount) => PageStatement);
  /** The same page with `count(*) OVER ()::int AS matches_total` among its columns. */
  countedPage: Prisma.Sql;
  /** A scalar subquery giving the unfiltered list's size, kept beside a kept total. */
  size?: Prisma.Sql;
}

/**
 * A page of a searched list and its total. Counting a search that matches
 * 100,000 customers reads 100,000 index entries and rows (tens of
 * milliseconds), which paging through the results would repeat on every
 * page. So a count of CACHED_COUNT_MIN_ROWS or more is kept in list_counts
 * (PostgreSQL, so every API process shares it) and served for
 * CACHED_COUNT_TTL_S seconds: a total up to that old, while the rows of each
 * page are always read live. When it expires, the one request that claims
 * the row (a single conditional UPDATE) counts again; requests meanwhile
 * keep the previous total instead of all counting at once. Smaller counts
 * are always exact and current.
 *
 * When the total of a first page is counted, the page comes from the same
 * pass (`countedPage`, a window count over the matches): a search matching
 * a few dozen rows reads its trigram index once per request instead of
 * twice. The list_counts statements are prepared; the searches themselves are
 * planned for their pattern, unless the page says otherwise given the kept
 * total and the list's size (kept with it when `size` is given).
 */
export async function searchPage<R extends Record<string, unknown>>(
  { query, prepared }: Runs,
  orgId: string,
  list: string,
  key: string,
  offset: number,
  sql: SearchPageSql,
): Promise<{ rows: R[]; total: number }> {
  const k = key.slice(0, 300);
  const [kept] = await prepared<{ total: number; size: number | null; fresh: boolean }>(Prisma.sql`
    SELECT total, list_size AS size, counted_at > now() - make_interval(secs => ${CACHED_COUNT_TTL_S}::int) AS fresh
    FROM list_counts WHERE organization_id = ${orgId} AND list = ${list} AND key = ${k}`);
  const keptPage = async (count: KeptCount) => {
    if (offset >= count.total) return { rows: [], total: count.total };
    const page = typeof sql.page === 'function' ? sql.page(count) : sql.page;
    return { rows: await ('prepared' in page ? prepared<R>(page.prepared) : query<R>(page)), total: count.total };
  };
  if (kept?.fresh) return keptPage(kept);
  if (kept) {
    const claimed = await prepared(Prisma.sql`
      UPDATE list_counts SET counted_at = now()
      WHERE organization_id = ${orgId} AND list = ${list} AND key = ${k}
        AND counted_at <= now() - make_interval(secs => ${CACHED_COUNT_TTL_S}::int)
      RETURNING 1`);
    if (!claimed.length) return keptPage(kept);
  }
  // The first page, the one nearly every search shows, comes with its total
  // from one pass. A later page counts first: the page may lie past the
  // matches, and an empty page carries no total.
  let rows: R[] | null = null;
  let total: number;
  if (offset === 0) {
    const counted = await query<R & { [MATCHES_COLUMN]: number }>(sql.countedPage);
    total = counted[0]?.[MATCHES_COLUMN] ?? 0;
    rows = counted.map((r) => {
      const { [MATCHES_COLUMN]: _total, ...row } = r;
      return row as unknown as R;
    });
  } else {
    total = (await query<{ total: number }>(sql.count))[0]!.total;
  }
  let size: number | null = null;
  if (total >= CACHED_COUNT_MIN_ROWS) {
    const [stored] = await prepared<{ size: number | null }>(Prisma.sql`
      INSERT INTO list_counts (organization_id, list, key, total, list_size, counted_at)
      VALUES (${orgId}, ${list}, ${k}, ${total}::int, ${sql.size ? Prisma.sql`(${sql.size})` : Prisma.sql`NULL`}::int, now())
      ON CONFLICT (organization_id, list, key) DO UPDATE
        SET total = excluded.total, list_size = excluded.list_size, counted_at = excluded.counted_at
      RETURNING list_size AS size`);
    size = stored?.size ?? null;
  } else if (kept) {
    await prepared(Prisma.sql`DELETE FROM list_counts WHERE organization_id = ${orgId} AND list = ${list} AND key = ${k}`);
  }
  if (rows) return { rows, total };
  return keptPage({ total, size });
}
