// The floor scenario's server (see floor.mjs), run as its own process: plain
// node:http, with none of the API's framework. For every request it does
// what the API's database work for the customer list is, and nothing else:
// the session lookup (prepared), then listCustomers from the API's build,
// both on one pooled connection, and the reply as JSON. No token check, no
// validation, no security headers, no routing.
//
//   FLOOR_PORT, DATABASE_URL, FLOOR_USER_ID, FLOOR_POOL (12)
import http from 'node:http';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { root } from '../lib.mjs';

const list = await import(pathToFileURL(resolve(root, 'apps/api/dist/customers/customer-list.js')).href);
const session = await import(pathToFileURL(resolve(root, 'apps/api/dist/auth/session.js')).href);
const userId = Number(process.env.FLOOR_USER_ID);
const sessionId = process.env.FLOOR_SESSION_ID || null;
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.FLOOR_POOL ?? 12) });

const names = new Map();
const statementName = (text) => {
  if (!names.has(text)) names.set(text, `f${names.size}`);
  return names.get(text);
};

const server = http.createServer(async (req, res) => {
  const q = new URL(req.url, 'http://floor').searchParams;
  const params = {
    limit: Number(q.get('limit') ?? 10),
    offset: Number(q.get('offset') ?? 0),
    search_field: q.get('search_field') ?? 'customer_name',
    search_term: q.get('search_term') || null,
  };
  let client;
  try {
    client = await pool.connect();
    const query = (s) => client.query(s.text, s.values).then((r) => r.rows);
    const prepared = (s) => client.query({ name: statementName(s.text), text: s.text, values: s.values }).then((r) => r.rows);
    await prepared(session.sessionQuery(userId, sessionId));
    const { rows, total } = await list.listCustomers({ query, prepared }, 'big', params);
    const body = JSON.stringify({ data: rows, pagination: { total, limit: params.limit, offset: params.offset } });
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  } catch (e) {
    res.writeHead(500, { 'content-type': 'text/plain' });
    res.end(String(e));
  } finally {
    client?.release();
  }
});

process.on('SIGTERM', () => {
  server.close();
  void pool.end().then(() => process.exit(0));
});
server.listen(Number(process.env.FLOOR_PORT), '127.0.0.1', () => process.send?.('up'));
