// Scenario (1) and (6): GET /payg/registered-customers, first page and a deep
// page, without and with a search on each search field, and for the searches
// with more than 200 matches a page in the middle of them (offset 500,000 is
// past every search's matches); and for each one the statements the API runs
// for it (the session lookup of the JWT guard, then the list's own),
// straight on PostgreSQL with pg.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/** A term per search field that matches a realistic share of the seeded customers. */
export const SEARCHES = [
  ['customer_name', 'Wanjiru'], // a first name: 1 in 30
  ['phone_contact', '12345'], // five digits of a phone number: about 40
  ['id_number', '2012345'], // part of an ID number: 10
  ['email', 'makena.kimani'], // a name in the address: about 1,700
  ['county', 'Kisumu'], // 1 in 15
  ['constituency', 'Constituency 12'], // 11 of 290
  ['occupation', 'Teacher'], // 1 in 10
];

const statementNames = new Map();
const statementName = (text) => {
  if (!statementNames.has(text)) statementNames.set(text, `b${statementNames.size}`);
  return statementNames.get(text);
};

/**
 * The bench user and the session its API token belongs to (run.mjs signed in before any scenario): the API's
 * session lookup checks that session is live, so the raw loop runs the lookup with it too.
 */
export async function benchSession(sql) {
  const { rows } = await sql.query(`
    SELECT u.user_id, (SELECT r.session_id::text FROM refresh_tokens r WHERE r.user_id = u.user_id AND r.revoked_at IS NULL
                       ORDER BY r.created_at DESC LIMIT 1) AS session_id
    FROM users u WHERE u.username = 'bench'`);
  return { userId: rows[0].user_id, sessionId: rows[0].session_id };
}

export async function listQueries({ N, root, sql }) {
  const deep = Math.floor(N / 2);
  const variants = [{ name: 'no search', params: {} }, ...SEARCHES.map(([field, term]) => ({ name: `${field} "${term}"`, params: { search_field: field, search_term: term } }))];
  const api = resolve(root, 'apps/api/dist/customers/customer-list.js');
  const session = resolve(root, 'apps/api/dist/auth/session.js');
  const shared = existsSync(api) && existsSync(session) ? { list: await import(pathToFileURL(api).href), session: await import(pathToFileURL(session).href) } : null;
  const { userId, sessionId } = await benchSession(sql);
  const out = [];
  for (const v of variants) {
    const pages = [['first page', 0], [`offset ${deep}`, deep]];
    if (v.params.search_field) {
      const { rows } = await sql.query(`SELECT count(*)::int AS n FROM customers WHERE organization_id = 'big' AND "${v.params.search_field}" ILIKE $1`, [
        `%${v.params.search_term}%`,
      ]);
      const middle = Math.floor(rows[0].n / 20) * 10;
      if (middle >= 100) pages.push([`offset ${middle} (mid-matches)`, middle]);
    }
    for (const [page, offset] of pages) {
      const params = { limit: 10, offset, ...v.params };
      const qs = new URLSearchParams(Object.entries(params).map(([k, val]) => [k, String(val)]));
      out.push({
        name: `${v.name}, ${page}`,
        path: `/payg/registered-customers?${qs}`,
        check: (body) => {
          const r = JSON.parse(body.toString());
          if (!Array.isArray(r.data) || typeof r.pagination?.total !== 'number') return `unexpected reply: ${body.toString().slice(0, 200)}`;
          const expected = Math.max(0, Math.min(10, r.pagination.total - offset));
          return r.data.length === expected ? null : `${r.data.length} rows, expected ${expected}`;
        },
        work: shared
          ? async (client) => {
              // As the API runs them: the session lookup and the keyed statements prepared, a search planned each time.
              const query = (s) => client.query(s.text, s.values).then((r) => r.rows);
              const prepared = (s) => client.query({ name: statementName(s.text), text: s.text, values: s.values }).then((r) => r.rows);
              await prepared(shared.session.sessionQuery(userId, sessionId));
              await shared.list.listCustomers({ query, prepared }, 'big', { search_field: 'customer_name', ...params });
            }
          : null,
      });
    }
  }
  return out;
}
