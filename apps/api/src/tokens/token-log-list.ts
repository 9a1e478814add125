import { TOKEN_LOG_TYPES, type TokenLogQuery } from '@kidogo/contracts';
import { Prisma } from '../generated/prisma/client.js';
import type { Runs } from '../database/database.service.js';
import { offsetDay } from '../stats/totals.js';
import { type KeptCount, MATCHES_COLUMN, type PageStart, pageInteger, searchPage } from '../common/list-counts.js';
import { GRAM_LENGTH, gramsMatch, textMatch } from '../catalog/search.js';
import type { TokenLogRow } from './tokens.mapper.js';

/** The reply's columns, of the table as `t` (or unnamed). */
const columnsOf = (t = '') =>
  Prisma.raw(
    ['token_log_id AS id', 'token_value', 'serial_number', 'customer_name', 'token_type::text AS token_type', 'days_generated', 'token_count']
      .concat(['status', 'is_valid', 'was_assigned', 'payment_id', 'created_at', 'generated_by'])
      .map((c) => (t ? `${t}.${c}` : c))
      .join(', '),
  );
const COLUMNS = columnsOf();

/**
 * The Status column's labels (see the web's tokenStatus): 'Success' when
 * the generation succeeded and the device still takes the token, 'Expired'
 * when it no longer does (is_valid false, see stillTaken) or the status says
 * so, else 'Valid' or 'Invalid' by is_valid (or a status of 'valid'). Each
 * as the condition that gives a row that label; the last two also say
 * `status <> 'success'` (implied by the rest), the condition of the partial
 * index that finds those few rows (0020_token_search).
 */
const STATUS_LABELS: readonly [label: string, condition: Prisma.Sql][] = [
  ['success', Prisma.sql`(lower(status) = 'success' AND is_valid)`],
  ['expired', Prisma.sql`((lower(status) = 'success' AND NOT is_valid) OR lower(status) = 'expired')`],
  ['valid', Prisma.sql`(status <> 'success' AND lower(status) NOT IN ('success', 'expired') AND (is_valid OR lower(status) = 'valid'))`],
  ['invalid', Prisma.sql`(status <> 'success' AND lower(status) NOT IN ('success', 'expired') AND NOT is_valid AND lower(status) <> 'valid')`],
];

/**
 * Up to this many matches (a kept total), a search's page is read by
 * fetching every match through the trigram indexes and sorting them (2,000
 * rows: a few milliseconds). Otherwise PostgreSQL may walk the newest-first
 * index for a page of a rare term, reading every token of the organization
 * to find none: 6.5 s on 5,000,000 tokens for a term that matched nothing.
 */
export const TOKEN_SORT_MAX_MATCHES = 2_000;

/**
 * Beyond this many index entries to walk for a page ((offset from its place
 * + limit) × tokens / matches), the matches are fetched and sorted instead,
 * however many there are.
 */
export const TOKEN_WALK_MAX_ENTRIES = 20_000;

/**
 * Token numbers are searched by their pieces from this many digits (three
 * pieces of GRAM_LENGTH). A restricted-digit-set token is written with the
 * digits 1 to 4 only, so each of its 256 possible pieces is in one token in
 * thirty: a single piece would find hundreds of thousands of rows, three
 * together a few.
 */
export const PIECES_FROM = GRAM_LENGTH + 2;

/**
 * `(serial ILIKE … OR customer name ILIKE … OR token value ILIKE … [OR the
 * types and statuses whose names contain the term])`. A token value is shown
 * in groups of three digits, so it is matched without the spaces typed.
 *
 * `indexed` finds the token value by its pieces (search_grams,
 * 0020_token_search) when the term has PIECES_FROM digits or more, as for
 * customers' phone numbers: its digit trigrams are each in tens of thousands
 * of values, and finding one token's number among 5,000,000 tokens read the
 * trigram index for 9.8 ms, the pieces for under 1 ms. That is for reading
 * every match (the count, the places, a page of few matches); a page walked
 * in the newest-first order tests each row with `plain`, the same matches
 * without computing a row's pieces (a function call: walking 200,000 tokens
 * that way took 0.8 s). Serial numbers keep their trigram index: a prefix
 * such as "SHS-0" is in every serial, and its pieces' index found all
 * 5,000,000 rows and computed their pieces again (37 s).
 */
export function tokenSearchMatch(term: string): { indexed: Prisma.Sql; plain: Prisma.Sql } {
  const folded = term.toLowerCase().replace(/\s+/g, '_');
  const types = TOKEN_LOG_TYPES.filter((k) => k.includes(folded));
  const statuses = STATUS_LABELS.filter(([label]) => label.includes(term.toLowerCase()));
  const number = term.replace(/\s+/g, '');
  const match = (value: Prisma.Sql) => {
    const parts = [
      textMatch(['serial_number', 'customer_name'], term),
      value,
      ...(types.length ? [Prisma.sql`token_type::text IN (${Prisma.join(types)})`] : []),
      ...statuses.map(([, condition]) => condition),
    ];
    return Prisma.sql`(${Prisma.join(parts, ' OR ')})`;
  };
  const plain = textMatch(['token_value'], number);
  return { indexed: match([...number].length >= PIECES_FROM ? gramsMatch('token_value', number) : plain), plain: match(plain) };
}

/**
 * Whether the term is a token's number (PIECES_FROM digits or more, spaces
 * aside): it matches a few tokens by their value, and serials or names only
 * where they hold that run of digits. Its first page then comes with its
 * total from one pass over the matches, not a count and then the page
 * (two reads of the same three indexes: 7.5 ms of PostgreSQL per request).
 */
const TOKEN_NUMBER = new RegExp(`^\\d{${PIECES_FROM},}$`);
export const isTokenNumber = (term: string) => TOKEN_NUMBER.test(term.replace(/\s+/g, ''));

/** `AND` the page's place onwards, in the list's order, when it starts from an anchor. */
const from = (start: PageStart) =>
  start.anchor ? Prisma.sql`AND (created_at, token_log_id) <= (${start.anchor.time}::timestamptz, ${start.anchor.id}::int)` : Prisma.empty;

/** Whether a page is cheaper read from every match, sorted, than by walking the newest-first index (see the constants). */
const sorted = (limit: number, start: PageStart, kept: KeptCount) =>
  kept.total <= TOKEN_SORT_MAX_MATCHES || (kept.size !== null && (start.skip + limit) * kept.size > TOKEN_WALK_MAX_ENTRIES * kept.total);

/**
 * One page of the organization's generated tokens, newest first, and the
 * total. Shared by the API (TokensService.listLogs) and the benchmark.
 *
 * Without a search it is one prepared statement: the total is the sum of
 * token_stats (tokens per day, kept by triggers), and the same per-day
 * totals find the page at any depth, as for the customer list (offset
 * 2,000,000 of 5,000,000: 1 s before, milliseconds after). The tokens of
 * the day before the page are skipped in the newest-first index alone (a
 * busy day holds tens of thousands), and only the page's rows are read.
 *
 * With a search, the page and its total come from searchPage: the total is
 * counted once and kept (so is the place of every n-th match, for deep
 * pages), and the page is read either by walking the newest-first index from
 * its place or, when the matches are few or far apart, by fetching them all
 * through the trigram indexes and sorting (see `sorted`).
 */
export async function listTokenLogs(runs: Runs, orgId: string, q: TokenLogQuery): Promise<{ rows: TokenLogRow[]; total: number }> {
  const term = q.search?.trim();
  if (term) {
    const match = tokenSearchMatch(term);
    const all = Prisma.sql`organization_id = ${orgId} AND ${match.indexed}`;
    const walked = Prisma.sql`organization_id = ${orgId} AND ${match.plain}`;
    const order = (skip: number) => Prisma.sql`ORDER BY created_at DESC, token_log_id DESC LIMIT ${q.limit}::int OFFSET ${skip}::int`;
    return searchPage<TokenLogRow>(runs, orgId, 'token_logs', JSON.stringify(['search', term]), q.offset, {
      count: Prisma.sql`SELECT count(*)::int AS total FROM token_logs WHERE ${all}`,
      page: (kept, start) =>
        sorted(q.limit, start, kept)
          ? // OFFSET 0 keeps PostgreSQL from turning the fetch into a walk of the ordered index.
            Prisma.sql`SELECT * FROM (SELECT ${COLUMNS} FROM token_logs WHERE ${all} ${from(start)} OFFSET 0) m
              ORDER BY created_at DESC, id DESC LIMIT ${q.limit}::int OFFSET ${start.skip}::int`
          : Prisma.sql`SELECT ${COLUMNS} FROM token_logs WHERE ${walked} ${from(start)} ${order(start.skip)}`,
      size: Prisma.sql`SELECT coalesce(sum(n), 0)::int FROM token_stats WHERE organization_id = ${orgId}`,
      anchors: Prisma.sql`SELECT created_at AS t, token_log_id AS id FROM token_logs WHERE ${all}`,
      // A counted page for a token's number only: other terms may match most
      // tokens, a type or a status ("add", "success") or a serial's prefix
      // ("SHS-": a counted page of whole rows took 12 s, its count 1.2 s).
      // Its window counts the matches' keys alone, and only the page's rows are read.
      countedPage: isTokenNumber(term)
        ? Prisma.sql`
          SELECT ${columnsOf('l')}, k.${Prisma.raw(MATCHES_COLUMN)} FROM (
            SELECT token_log_id, created_at, count(*) OVER ()::int AS ${Prisma.raw(MATCHES_COLUMN)} FROM token_logs WHERE ${all}
            ORDER BY created_at DESC, token_log_id DESC LIMIT ${q.limit}::int
          ) k
          JOIN token_logs l ON l.organization_id = ${orgId} AND l.token_log_id = k.token_log_id
          ORDER BY l.created_at DESC, l.token_log_id DESC`
        : undefined,
    });
  }
  // The limit is in the text: with it a parameter too, PostgreSQL could not cost a generic plan and planned every
  // execution (0.38 ms of planning to 0.59 ms of running on the benchmark's first page; see pageBounds).
  const rows = await runs.prepared<TokenLogRow & { total: number }>(Prisma.sql`
    ${offsetDay('token_stats', orgId, q.offset)}
    SELECT (SELECT coalesce(sum(n), 0)::int FROM days) AS total, t.*
    FROM (SELECT 1) one
    LEFT JOIN place p ON true
    LEFT JOIN LATERAL (
      SELECT ${columnsOf('l')} FROM (
        SELECT token_log_id FROM token_logs
        WHERE organization_id = ${orgId} AND created_at < kidogo_day_start(p.day + 1)
        ORDER BY created_at DESC, token_log_id DESC
        LIMIT ${Prisma.raw(String(pageInteger(q.limit)))} OFFSET ${q.offset}::int - p.newer
      ) k
      JOIN token_logs l ON l.organization_id = ${orgId} AND l.token_log_id = k.token_log_id
      ORDER BY l.created_at DESC, l.token_log_id DESC
    ) t ON true`);
  return {
    rows: rows.filter((r) => r.id !== null).map(({ total: _t, ...r }) => r as TokenLogRow),
    total: rows[0]?.total ?? 0,
  };
}
