import type { CustomerSearchField } from '@kidogo/contracts';
import { normalizePhone } from '@kidogo/mobile-money';
import { phoneCountry } from './phone-country.js';
import { Prisma } from '../generated/prisma/client.js';
import type { Customer as CustomerRow } from '../generated/prisma/client.js';
import type { Runs } from '../database/database.service.js';
import { offsetDay } from '../stats/totals.js';
import { type KeptCount, MATCHES_COLUMN, type PageStart, pageBounds, pageInteger, searchPage } from '../common/list-counts.js';
import { GRAM_LENGTH, gramsMatch, loweredMatch, textMatch } from '../catalog/search.js';

export interface CustomerListQuery {
  limit: number;
  offset: number;
  search_field: CustomerSearchField;
  search_term?: string | null;
}

type Row = { customer_id: number } & Omit<CustomerRow, 'id'>;

/**
 * The customers table's columns, named: the prepared statement below must
 * not select `c.*`, whose shape changes when a later migration adds a column
 * while an older API process is still running ("cached plan must not change
 * result type"). Only `id` is mapped to another column name.
 */
const COLUMNS = Prisma.raw(
  Object.values(Prisma.CustomerScalarFieldEnum)
    .map((f) => `c."${f === 'id' ? 'customer_id' : f}"`)
    .join(', '),
);

/** The searched columns with a search_grams index: numbers, whose digit trigrams are each in thousands of rows. */
const GRAM_FIELDS: ReadonlySet<CustomerSearchField> = new Set(['phone_contact', 'id_number']);

/**
 * The searched columns matched by lower() (see loweredMatch): their page is
 * found in the newest-first index that holds lower(column) (0016_email_walk),
 * then its rows are read by key.
 */
const LOWERED_FIELDS: ReadonlySet<CustomerSearchField> = new Set(['email']);

/**
 * A lowered search's page walks the newest-first index for as long as it
 * takes to find its rows: about (offset + limit) × customers / matches
 * entries, each a substring test (0.08 µs). Up to this many, given a kept
 * total and the customers it was counted among, that walk is the plan, and
 * the page is a prepared statement (see walkPage); beyond it, or without a
 * kept total, the page is planned for its pattern.
 */
export const WALK_MAX_ENTRIES = 20_000;

/**
 * The same for the other searched columns, whose newest-first index holds
 * no copy of them: each entry walked reads its row (about 0.5 µs with the
 * substring test). Up to this many rows, given a kept total and the
 * customers it was counted among, the page is a prepared walk (see
 * rowWalkPage); beyond it, or without a kept total, the page is planned for
 * its pattern (the trigram index, for rare terms).
 */
export const ROW_WALK_MAX = 2_000;

/**
 * Up to this many matches (a kept total), a grams search's page is read by
 * fetching every match from the grams index and sorting them: 2,000 rows
 * cost about 2 ms. With more, walking the newest-first index until the page
 * is full gets cheaper, and the planner chooses as for the other fields.
 */
export const GRAM_PAGE_MAX_MATCHES = 2_000;

/**
 * `column ILIKE '%term%'` as a substring test of lower(column) against the
 * term lowered once by PostgreSQL (an InitPlan): no plan depends on the term,
 * so the prepared statements below keep one generic plan per connection.
 * The same matches as ILIKE (see loweredMatch).
 */
const contains = (column: string, term: string) =>
  Prisma.sql`strpos(${Prisma.raw(`lower("${column}")`)}, (SELECT lower(${term}::text))) > 0`;

/**
 * A page of a lowered search by walking the newest-first index that holds
 * lower(column) (0016_email_walk), its rows then read by key: the same
 * matches as `column ILIKE '%term%'` (see loweredMatch), written as a
 * substring test against the term lowered once by PostgreSQL (an InitPlan),
 * so that no plan depends on the term. With the limit and the offset in the
 * text (when under ANCHORED_FROM, as from a kept place or on the first pages),
 * PostgreSQL keeps one generic plan per connection instead of planning every
 * request (for the benchmark's email search: 1.35 to 0.75 ms per statement,
 * planning 0.3 ms of it); a larger offset is a parameter, planned each time.
 */
function walkPage(orgId: string, column: string, term: string, limit: number, start: PageStart): Prisma.Sql {
  return Prisma.sql`
    SELECT ${COLUMNS} FROM (
      SELECT customer_id FROM customers
      WHERE organization_id = ${orgId} AND ${contains(column, term)} ${from(start)}
      ORDER BY created_at DESC, customer_id DESC ${pageBounds(limit, start.skip)}
    ) k
    JOIN customers c ON c.organization_id = ${orgId} AND c.customer_id = k.customer_id
    ORDER BY c.created_at DESC, c.customer_id DESC`;
}

/**
 * A deep page of a search by the keys of its kept matches (see
 * SearchPageSql.keyed): the rows that still match, as ILIKE would match
 * them (lower(column) holds lower(term), the test loweredMatch relies on),
 * in list order. The primary key finds them whatever the term, so one
 * prepared text serves every search of the field.
 */
function keyedPage(orgId: string, column: string, term: string, limit: number, ids: number[]): Prisma.Sql {
  return Prisma.sql`
    SELECT ${COLUMNS} FROM customers c
    WHERE c.organization_id = ${orgId} AND c.customer_id = ANY(${ids}::int[])
      AND ${contains(column, term)}
    ORDER BY c.created_at DESC, c.customer_id DESC
    LIMIT ${Prisma.raw(String(pageInteger(limit)))}`;
}

/**
 * A page of a search on a column the newest-first index does not hold,
 * by walking that index and reading each entry's row: written, as in
 * walkPage, as a substring test against the term lowered once, so that no
 * plan depends on the term (planning the page for its pattern took 0.15-0.2
 * ms of the constituency search's 0.85 ms). The organization and the anchor
 * are InitPlans too: given their values, PostgreSQL costs a custom plan for
 * the large organization lower than the generic one (5 against 32 for the
 * same index walk) and so planned every execution (0.13 ms of 1.2-1.8 ms);
 * hidden from it, both cost the same and the generic plan is kept from the
 * sixth execution. Only a walk known to be short comes here (walkable), so
 * no organization's size could call for another plan.
 */
function rowWalkPage(orgId: string, column: string, term: string, limit: number, start: PageStart): Prisma.Sql {
  const place = start.anchor
    ? Prisma.sql`AND (created_at, customer_id) <= ((SELECT ${start.anchor.time}::timestamptz), (SELECT ${start.anchor.id}::int))`
    : Prisma.empty;
  return Prisma.sql`
    SELECT ${COLUMNS} FROM customers c
    WHERE organization_id = (SELECT ${orgId}::text) AND ${contains(column, term)} ${place}
    ORDER BY created_at DESC, customer_id DESC ${pageBounds(limit, start.skip)}`;
}

/** `AND` the page's place onwards, in the list's order, when it starts from an anchor. */
const from = (start: PageStart) =>
  start.anchor ? Prisma.sql`AND (created_at, customer_id) <= (${start.anchor.time}::timestamptz, ${start.anchor.id}::int)` : Prisma.empty;

/** Whether walking is the cheaper way to a lowered search's page (see WALK_MAX_ENTRIES). */
const walkable = (limit: number, start: PageStart, kept: KeptCount, max = WALK_MAX_ENTRIES) =>
  kept.size !== null && (start.skip + limit) * kept.size <= max * kept.total;


/**
 * A whole phone number, however it is written ("0799 123 456",
 * "+254799123456", "254 799 123456"; without a country code, a number of the
 * organization's country), finds the customers whose number it
 * is, however theirs was typed: both are compared in the canonical form
 * (phone_normalized, indexed with the organization). A part of a number is
 * searched as typed, as on the other fields.
 */
async function phonePage(runs: Runs, orgId: string, phone: string, q: CustomerListQuery): Promise<{ rows: CustomerRow[]; total: number }> {
  const where = Prisma.sql`organization_id = ${orgId} AND phone_normalized = ${phone}`;
  const [counted] = await runs.prepared<{ total: number }>(Prisma.sql`SELECT count(*)::int AS total FROM customers WHERE ${where}`);
  const total = counted?.total ?? 0;
  if (q.offset >= total) return { rows: [], total };
  const rows = await runs.prepared<Row>(Prisma.sql`
    SELECT ${COLUMNS} FROM customers c WHERE ${where}
    ORDER BY created_at DESC, customer_id DESC LIMIT ${q.limit}::int OFFSET ${q.offset}::int`);
  return { rows: rows.map(toRow), total };
}

const toRow = (r: Row): CustomerRow => {
  const { customer_id, ...rest } = r;
  return { id: customer_id, ...rest } as CustomerRow;
};

/**
 * One page of the organization's customers, newest first, and the total.
 * Shared by the API (CustomersService.list) and the benchmark, which runs
 * the very same statements straight on PostgreSQL to compare.
 *
 * Without a search it is one statement. The total is the sum of
 * customer_stats (customers per creation day, kept by triggers: exact), and
 * the same per-day totals find the page at any depth: summed from the newest
 * day, they name the day the offset falls in and how many customers are
 * newer than that day, so the page is read from that day's place in the
 * (organization_id, created_at DESC, customer_id DESC) index, skipping at
 * most one day of customers instead of `offset` index entries (offset
 * 500,000 of 1,000,000: 0.3 s before, under a millisecond after). The
 * offset contract is unchanged.
 *
 * With a search, the page and its total come from searchPage (a kept
 * total, or the page and the count in one pass) and the searched column's
 * trigram index (see textMatch), or for phone and ID numbers their grams
 * index (see gramsMatch) when the term has a 4-character piece and no more
 * than GRAM_PAGE_MAX_MATCHES customers match, or for emails the indexes of
 * lower(email) (see LOWERED_FIELDS); a page past a kept total is not read,
 * and a page at offset ANCHORED_FROM or deeper starts from the kept place of
 * a match before it (see searchPage). The statement without a search is prepared (its parameters are the
 * organization and two numbers); a search is planned for its pattern,
 * except a page whose kept total says the walk to it is short (see walkPage
 * and rowWalkPage) and a deep page read by its kept matches' keys (see
 * keyedPage).
 */
export async function listCustomers(runs: Runs, orgId: string, q: CustomerListQuery): Promise<{ rows: CustomerRow[]; total: number }> {
  const term = q.search_term;
  // A whole number (8 digits at least) is read with the organization's calling code: "0772 123 456" in Uganda is +256….
  const whole = term && q.search_field === 'phone_contact' && (term.match(/\d/g)?.length ?? 0) >= 8;
  const phone = whole ? normalizePhone(term, await phoneCountry(runs.prepared, orgId)) : null;
  if (phone) return phonePage(runs, orgId, phone, q);
  if (term) {
    const where = (m: Prisma.Sql) => Prisma.sql`organization_id = ${orgId} AND ${m}`;
    const lowered = LOWERED_FIELDS.has(q.search_field);
    const planned = where(lowered ? loweredMatch(q.search_field, term) : textMatch([q.search_field], term));
    // Every match is read to count them: from the grams index where there is one.
    const grams = GRAM_FIELDS.has(q.search_field) && [...term].length >= GRAM_LENGTH;
    const all = grams ? where(gramsMatch(q.search_field, term)) : planned;
    const order = (start: PageStart) =>
      Prisma.sql`ORDER BY created_at DESC, customer_id DESC LIMIT ${q.limit}::int OFFSET ${start.skip}::int`;
    const first = { anchor: null, skip: 0 };
    const { rows, total } = await searchPage<Row>(runs, orgId, 'customers', JSON.stringify([q.search_field, term]), q.offset, {
      count: Prisma.sql`SELECT count(*)::int AS total FROM customers WHERE ${all}`,
      page: (kept, start) => {
        if (!lowered) {
          if (grams && kept.total <= GRAM_PAGE_MAX_MATCHES) return Prisma.sql`SELECT * FROM customers WHERE ${all} ${from(start)} ${order(start)}`;
          if (walkable(q.limit, start, kept, ROW_WALK_MAX)) return { prepared: rowWalkPage(orgId, q.search_field, term, q.limit, start) };
          return Prisma.sql`SELECT * FROM customers WHERE ${planned} ${from(start)} ${order(start)}`;
        }
        if (walkable(q.limit, start, kept)) return { prepared: walkPage(orgId, q.search_field, term, q.limit, start) };
        return Prisma.sql`SELECT c.* FROM (SELECT customer_id FROM customers WHERE ${planned} ${from(start)} ${order(start)}) k
          JOIN customers c ON c.organization_id = ${orgId} AND c.customer_id = k.customer_id
          ORDER BY c.created_at DESC, c.customer_id DESC`;
      },
      size: Prisma.sql`SELECT coalesce(sum(n), 0)::int FROM customer_stats WHERE organization_id = ${orgId}`,
      countedPage: Prisma.sql`SELECT *, count(*) OVER ()::int AS ${Prisma.raw(MATCHES_COLUMN)} FROM customers WHERE ${all} ${order(first)}`,
      anchors: Prisma.sql`SELECT created_at AS t, customer_id AS id FROM customers WHERE ${all}`,
      keyed: { limit: q.limit, page: (ids) => ({ prepared: keyedPage(orgId, q.search_field, term, q.limit, ids) }) },
    });
    return { rows: rows.map(toRow), total };
  }
  const rows = await runs.prepared<Row & { total: number }>(Prisma.sql`
    ${offsetDay('customer_stats', orgId, q.offset)}
    SELECT (SELECT coalesce(sum(n), 0)::int FROM days) AS total, ${COLUMNS}
    FROM (SELECT 1) one
    LEFT JOIN place p ON true
    LEFT JOIN LATERAL (
      SELECT * FROM customers
      WHERE organization_id = ${orgId} AND created_at < kidogo_day_start(p.day + 1)
      ORDER BY created_at DESC, customer_id DESC
      LIMIT ${q.limit}::int OFFSET ${q.offset}::int - p.newer
    ) c ON true`);
  const total = rows[0]?.total ?? 0;
  return {
    rows: rows.filter((r) => r.customer_id !== null).map(({ total: _t, ...r }) => toRow(r as Row)),
    total,
  };
}
