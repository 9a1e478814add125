import { Prisma } from '../generated/prisma/client.js';
import type { Runs } from '../database/database.service.js';

/** Counts at or above this many rows are kept in list_counts; smaller ones are counted every time. */
export const CACHED_COUNT_MIN_ROWS = 100;
/** How long a kept count is served before one request counts again. */
export const CACHED_COUNT_TTL_S = 15;

/** The column searchPage's counted page adds to each row: the number of matches. */
export const MATCHES_COLUMN = 'matches_total';

/**
 * A page at this offset or deeper of a list that gives `anchors` starts
 * from the kept place of a match before it (see searchPage) instead of
 * skipping every match before it (offset 50,000 of a search matching 100,000
 * of a million customers read 500,000 rows: 0.3-0.4 s). Shallower pages
 * skip a few matches, as the first pages do.
 */
export const ANCHORED_FROM = 100;

/**
 * LIMIT and OFFSET for a prepared page, written into the text when the
 * offset is under ANCHORED_FROM (a few texts per list, as the first pages and
 * the pages from a kept place have them), a parameter past it. With the
 * bounds as parameters, PostgreSQL cannot tell a generic plan's cost (it
 * takes a tenth of the rows for an unknown LIMIT) and plans every execution
 * again: for the Collections page, 1.2 ms of planning to 0.7 ms of running.
 */
export const pageBounds = (limit: number, skip: number): Prisma.Sql =>
  Prisma.sql`LIMIT ${Prisma.raw(String(pageInteger(limit)))} OFFSET ${skip < ANCHORED_FROM ? Prisma.raw(String(pageInteger(skip))) : Prisma.sql`${skip}::int`}`;

/** A page bound to write into a statement's text: refuses anything but a non-negative safe integer. */
export function pageInteger(n: number): number {
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`not a page bound: ${n}`);
  return n;
}
/**
 * Every n-th match's place is kept, n the smallest that keeps at most
 * MAX_ANCHORS places: a page then skips fewer than n matches from its place,
 * and the places of 100,000 matches stay 2,000 (24 kB). A search with
 * MAX_ANCHORS matches or fewer keeps every match's place, and a list that
 * gives `keyed` reads its deep pages by those keys (see SearchPageSql).
 */
export const MAX_ANCHORS = 2_000;

/**
 * A keyed page reads this many kept matches beyond its limit, so that the
 * matches deleted or changed since they were counted leave no gap in it.
 */
export const KEYED_SPARE = 10;

/** A match's place in a list's order (its created_at as PostgreSQL writes it, and id), and how far the page is past it. */
export interface Anchor {
  time: string;
  id: number;
  skip: number;
}

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

/** Where a page starts: `skip` matches after `anchor` (included), or at the list's offset when there is none. */
export interface PageStart {
  anchor: Pick<Anchor, 'time' | 'id'> | null;
  skip: number;
}

export interface SearchPageSql {
  /** `SELECT count(*)::int AS total ...` over every match. */
  count: Prisma.Sql;
  /**
   * The page: the matches in list order from `start`, the list's limit
   * applied; given the kept total, where the best way to read it depends on
   * how many rows match and how densely.
   */
  page: (kept: KeptCount, start: PageStart) => PageStatement;
  /**
   * The first page with `count(*) OVER ()::int AS matches_total` among its
   * columns: the first page and its total in one pass. Without it, the list
   * counts first, then reads the page given the total: for searches that
   * may match most rows (a word that names a token type or status), where
   * the counted page sorts every match (5 s for 4,900,000 tokens) and the
   * count alone runs in parallel (1.2 s).
   */
  countedPage?: Prisma.Sql;
  /** A scalar subquery giving the unfiltered list's size, kept beside a kept total. */
  size?: Prisma.Sql;
  /**
   * `SELECT <created_at> AS t, <id> AS id FROM ... WHERE <matches>`: every
   * match's place, for the lists whose deep pages start from anchors. The
   * list's order must be `t DESC, id DESC`.
   */
  anchors?: Prisma.Sql;
  /**
   * A deep page by its rows' keys, for a search whose every match's place is
   * kept (MAX_ANCHORS or fewer matches): `page(ids)` is the rows of those
   * keys that still match, in list order, at most `limit`, a statement whose
   * plan is the same for every term (the primary key). It is given the
   * places from the page's offset on and KEYED_SPARE more. A sparse search
   * (one customer in 600) otherwise walks about 6,000 index entries per
   * deep page to find its ten; by key it reads ten rows.
   */
  keyed?: { limit: number; page: (ids: number[]) => PageStatement };
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
 *
 * A page at ANCHORED_FROM or deeper of a list that gives `anchors` starts
 * from the kept place of the nearest match before it. Those places are
 * counted with the total, in one ordered pass over the matches, by the
 * request that claims them (when there are none or they are older than
 * CACHED_COUNT_TTL_S), and used while they are that fresh; a deep page
 * meanwhile uses the older places if there are any. So deep pages stand
 * where they stood when the places were counted, as the kept total does: at
 * most CACHED_COUNT_TTL_S seconds ago. A list that gives `keyed` reads a
 * deep page of a search with every place kept by those places' keys: the
 * rows are read live and must still match, and a match added since the
 * count (a customer's email changed to contain the term) shows on deep
 * pages once the places are counted again, as a new match's shift does.
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
  const where = Prisma.sql`organization_id = ${orgId} AND list = ${list} AND key = ${k}`;
  const fresh = (column: string) => Prisma.sql`${Prisma.raw(column)} > now() - make_interval(secs => ${CACHED_COUNT_TTL_S}::int)`;
  // The place at or before the offset: anchor_times[j] is match j × anchor_step's (PostgreSQL arrays count from 1).
  const deep = sql.anchors !== undefined && offset >= ANCHORED_FROM;
  // (A page past the matches needs none, and reading the places means reading their whole arrays.)
  const keyedTo = sql.keyed ? offset + sql.keyed.limit + KEYED_SPARE - 1 : 0;
  const place = (l: string) => {
    const [c, within] = [Prisma.raw(l), Prisma.sql`${deep}::boolean AND ${offset}::int < ${Prisma.raw(l)}total`];
    return Prisma.sql`
      CASE WHEN ${within} THEN ${c}anchor_times[${offset}::int / ${c}anchor_step]::text END AS time,
      CASE WHEN ${within} THEN ${c}anchor_ids[${offset}::int / ${c}anchor_step] END AS id,
      ${offset}::int % ${c}anchor_step AS skip,
      CASE WHEN ${within} AND ${sql.keyed !== undefined}::boolean AND ${c}anchor_step = 1 THEN ${c}anchor_ids[${offset}::int:${keyedTo}::int] END AS ids`;
  };
  type Placed = { time: string | null; id: number | null; skip: number | null; ids: number[] | null };
  const [kept] = await prepared<KeptCount & Placed & { fresh: boolean; anchored: boolean }>(Prisma.sql`
    SELECT total, list_size AS size, ${fresh('counted_at')} AS fresh, coalesce(${fresh('anchored_at')}, false) AS anchored, ${place('')}
    FROM list_counts WHERE ${where}`);
  const run = (page: PageStatement) => ('prepared' in page ? prepared<R>(page.prepared) : query<R>(page));
  const keptPage = async (count: KeptCount, anchor: Anchor | null, ids: number[] | null = null) => {
    if (offset >= count.total) return { rows: [], total: count.total };
    if (ids?.length && sql.keyed) return { rows: await run(sql.keyed.page(ids)), total: count.total };
    const start = anchor ? { anchor, skip: anchor.skip } : { anchor: null, skip: offset };
    const page = sql.page(count, start);
    return { rows: await run(page), total: count.total };
  };
  const anchorOf = (r: Placed | undefined): Anchor | null =>
    r?.time != null && r.id != null && r.skip != null ? { time: r.time, id: r.id, skip: r.skip } : null;
  /**
   * Counts the matches and their places in one ordered pass, and keeps both
   * (with the list's size) when there are CACHED_COUNT_MIN_ROWS or more, or
   * forgets a kept count when there are fewer: the page is placed either way.
   */
  const anchorAndCount = async () => {
    const [row] = await query<KeptCount & Placed>(Prisma.sql`
      WITH a AS (
        SELECT count(*)::int AS total, min(step) AS anchor_step,
               coalesce(array_agg(t ORDER BY pos) FILTER (WHERE pos > 0 AND pos % step = 0), '{}') AS anchor_times,
               coalesce(array_agg(id ORDER BY pos) FILTER (WHERE pos > 0 AND pos % step = 0), '{}') AS anchor_ids
        FROM (
          SELECT t, id, row_number() OVER (ORDER BY t DESC, id DESC) - 1 AS pos,
                 greatest(1, ceil(count(*) OVER () / ${MAX_ANCHORS}::numeric)::int) AS step
          FROM (${sql.anchors!}) m
        ) o
      ), kept AS (
        INSERT INTO list_counts (organization_id, list, key, total, list_size, counted_at, anchor_step, anchor_times, anchor_ids, anchored_at)
        SELECT ${orgId}, ${list}, ${k}, total, ${sql.size ? Prisma.sql`(${sql.size})` : Prisma.sql`NULL`}::int, now(), anchor_step, anchor_times, anchor_ids, now()
        FROM a WHERE total >= ${CACHED_COUNT_MIN_ROWS}::int
        ON CONFLICT (organization_id, list, key) DO UPDATE
          SET total = excluded.total, list_size = excluded.list_size, counted_at = excluded.counted_at, anchor_step = excluded.anchor_step,
              anchor_times = excluded.anchor_times, anchor_ids = excluded.anchor_ids, anchored_at = excluded.anchored_at
        RETURNING list_size
      ), forgotten AS (
        DELETE FROM list_counts WHERE ${where} AND (SELECT total FROM a) < ${CACHED_COUNT_MIN_ROWS}::int
      )
      SELECT a.total, (SELECT list_size FROM kept) AS size, ${place('a.')} FROM a`);
    return row!;
  };
  const placed = async () => {
    const counted = await anchorAndCount();
    return keptPage(counted, anchorOf(counted), counted.ids);
  };

  if (kept?.fresh) {
    if (!deep || kept.anchored) return keptPage(kept, anchorOf(kept), kept.ids);
    // A deep page and no places counted since the total (or too long ago): one request counts them.
    const claimed = await prepared(Prisma.sql`
      UPDATE list_counts SET anchored_at = now()
      WHERE ${where} AND (anchored_at IS NULL OR NOT ${fresh('anchored_at')})
      RETURNING 1`);
    return claimed.length ? placed() : keptPage(kept, anchorOf(kept), kept.ids);
  }
  if (kept) {
    const claimed = await prepared(Prisma.sql`
      UPDATE list_counts SET counted_at = now()
      WHERE ${where} AND NOT ${fresh('counted_at')}
      RETURNING 1`);
    if (!claimed.length) return keptPage(kept, anchorOf(kept), kept.ids);
  }
  // The first page, the one nearly every search shows, comes with its total
  // from one pass (when the list gives a countedPage). A deep page of a kept
  // count counts the matches and their places; any other later page counts
  // first: the page may lie past the matches (as a deep page of a rare
  // search does), and an empty page carries no total.
  if (deep && kept) return placed();
  let rows: R[] | null = null;
  let total: number;
  if (offset === 0 && sql.countedPage) {
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
    if (deep) return placed();
    const [stored] = await prepared<{ size: number | null }>(Prisma.sql`
      INSERT INTO list_counts (organization_id, list, key, total, list_size, counted_at)
      VALUES (${orgId}, ${list}, ${k}, ${total}::int, ${sql.size ? Prisma.sql`(${sql.size})` : Prisma.sql`NULL`}::int, now())
      ON CONFLICT (organization_id, list, key) DO UPDATE
        SET total = excluded.total, list_size = excluded.list_size, counted_at = excluded.counted_at
      RETURNING list_size AS size`);
    size = stored?.size ?? null;
  } else if (kept) {
    await prepared(Prisma.sql`DELETE FROM list_counts WHERE ${where}`);
  }
  if (rows) return { rows, total };
  return keptPage({ total, size }, null);
}
