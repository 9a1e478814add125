// Scenario (3): distinct M-Pesa confirmations posted to the receiver at
// concurrency 32, each one the whole way (parse, record, match, rules,
// token, reply SMS queued), then a count in the database that every one
// was stored exactly once.
import { randomBytes } from 'node:crypto';

export async function runPayments({ base, auth, sql, N, duration, record, log, results, http }) {
  const key = await fetch(`${base}/payg/settings/api-key`, { headers: auth }).then((r) => r.json());
  if (!key.api_key) throw new Error(`no API key: ${JSON.stringify(key)}`);
  // Assigned devices on a plan whose count is the usual 10 (every 100th has 1000: the token scenario's).
  const { rows } = await sql.query(
    `SELECT serial_number FROM items WHERE organization_id = 'big' AND is_assigned AND item_id % 100 <> 7 AND item_id <= $1 ORDER BY item_id DESC LIMIT 20000`,
    [N],
  );
  const serials = rows.map((r) => r.serial_number);
  // Q, 4 characters for the run (seconds, base 36, with a random start), a 9 so that every code has a digit.
  const run = ((Math.floor(Date.now() / 1000) + randomBytes(2).readUInt16BE(0)) % 36 ** 4).toString(36).toUpperCase().padStart(4, '0');
  const prefix = `Q${run}9`;
  const amount = Math.max(2000, Math.round(duration * 300));
  const now = new Date(Date.now() + 3 * 3_600_000); // the texts are in East Africa time
  const h = now.getUTCHours();
  const when = `${now.getUTCDate()}/${now.getUTCMonth() + 1}/${String(now.getUTCFullYear()).slice(2)} at ${h % 12 || 12}:${String(now.getUTCMinutes()).padStart(2, '0')} ${h < 12 ? 'AM' : 'PM'}`;
  let i = 0;
  const codes = [];
  const next = () => {
    const n = i++;
    const code = `${prefix}${n.toString(36).toUpperCase().padStart(4, '0')}`;
    codes.push(code);
    const serial = serials[(n * 7919) % serials.length];
    const phone = `2547${String(10_000_000 + ((n * 104_729) % 89_999_999))}`;
    const message = `${code} Confirmed. Ksh200.00 received from BENCH PAYER ${phone} on ${when}. Account Number ${serial}. New Utility balance is Ksh45,300.00.`;
    return { method: 'POST', path: '/payg/external/receive-phoneteletalk', body: JSON.stringify({ from: 'MPESA', message }) };
  };
  const outcomes = {};
  // A warm API, as in production: the first payments compile the payment path (parsers, the token
  // module, the statements on each pooled connection). They are checked like the others, not timed.
  const warm = Math.round(amount / 10);
  log(`payments  warming up with ${warm} payments...`);
  await http({ url: base, connections: 32, amount: warm, headers: { 'content-type': 'application/json', 'x-api-key': key.api_key }, next, onBody: () => {} });
  log(`payments  posting ${amount} distinct payments at concurrency 32 over ${serials.length} devices...`);
  const figures = await http({
    url: base,
    connections: 32,
    amount,
    headers: { 'content-type': 'application/json', 'x-api-key': key.api_key },
    next,
    onBody: (b) => {
      let status = 'unreadable';
      try {
        status = JSON.parse(b.toString()).status ?? 'no status';
      } catch {
        /* counted as unreadable */
      }
      outcomes[status] = (outcomes[status] ?? 0) + 1;
    },
  });
  const like = `${prefix}%`;
  // One client: the checks run one after the other.
  const p = await sql.query(`SELECT count(*)::int AS n, count(DISTINCT transaction_code)::int AS codes FROM payments WHERE organization_id = 'big' AND transaction_code LIKE $1`, [like]);
  const m = await sql.query(`SELECT count(*)::int AS n, count(DISTINCT transaction_code)::int AS codes FROM messages WHERE organization_id = 'big' AND transaction_code LIKE $1`, [like]);
  const t = await sql.query(
    `SELECT count(*)::int AS n FROM token_logs t JOIN payments p ON p.organization_id = t.organization_id AND p.payment_id = t.payment_id
     WHERE p.organization_id = 'big' AND p.transaction_code LIKE $1`,
    [like],
  );
  const q = await sql.query(`SELECT count(*)::int AS n FROM messages WHERE organization_id = 'big' AND transaction_code LIKE $1 AND delivery_status = 'queued'`, [like]);
  const sent = new Set(codes).size;
  const check = {
    sent,
    payments_stored: p.rows[0].n,
    distinct_codes_stored: p.rows[0].codes,
    messages_stored: m.rows[0].n,
    tokens_issued: t.rows[0].n,
    replies_queued: q.rows[0].n,
    lost: sent - p.rows[0].codes,
    duplicated: p.rows[0].n - p.rows[0].codes + (m.rows[0].n - m.rows[0].codes),
    outcomes,
  };
  results.payments = { ...figures, ...check };
  record('payments', 'POST /external/receive-phoneteletalk, c=32', { check }, figures);
  log(`payments  ${JSON.stringify(check)}`);
}
