// Seeds the benchmark database: one large organization (1,000,000 customers
// and devices, 50 templates, 5,000,000 payments and token logs, 1,000,000
// messages, 100,000 collection calls) and 20 small ones, with INSERT ... SELECT generate_series inside
// PostgreSQL (no rows travel through Node), in minutes.
//
//   node bench/seed.mjs [--scale 0.1] [--fresh]
//
// BENCH_DATABASE_URL: a PostgreSQL server to use (a database kidogo_bench, or
// kidogo_bench_0_1 for --scale 0.1, is created on it); unset: an embedded
// PostgreSQL in .data/bench-pg on port BENCH_PG_PORT (54330).
import { resolve } from 'node:path';
import pg from 'pg';
import bcrypt from 'bcryptjs';
import { benchDatabase, root } from './lib.mjs';

const args = process.argv.slice(2);
const scale = Number(args[args.indexOf('--scale') + 1] ?? 1) || 1;
const fresh = args.includes('--fresh');
const N = Math.round(1_000_000 * scale);
const PAYMENTS = N * 5;
const TOKENS = N * 5;
const MESSAGES = N;
/** Devices 1..N except every 10th are assigned (to the customer of the same id); payments and tokens are theirs. */
const ASSIGNED = N - Math.floor(N / 10);
/** The SQL for the j-th assigned device's id (j from 0): 1..9, 11..19, ... */
const assigned = (j) => `((${j}) / 9 * 10 + (${j}) % 9 + 1)::int`;

const { SecretBox } = await import(resolve(root, 'apps/api/dist/common/crypto.js'));
const { migrate } = await import(resolve(root, 'apps/api/dist/database/migrator.js'));
const { installBusinessDay } = await import(resolve(root, 'apps/api/dist/database/business-day.js'));
const { DEFAULT_TIME_ZONE } = await import(resolve(root, 'apps/api/dist/common/calendar.js'));
const { generateSecretKey, deriveStartingCode } = await import(resolve(root, 'packages/openpaygo/dist/index.js'));

const { url, encryptionKey, stop } = await benchDatabase({ fresh, scale });
await migrate(url, console.log);
// The business day the benchmark's API will count in (TIME_ZONE, as bench/run.mjs passes it on), before any row:
// the triggers then file the totals under its days, exactly as the API's own writes would, and the API finds
// them current at start instead of rebuilding them.
await installBusinessDay(url, process.env.TIME_ZONE || DEFAULT_TIME_ZONE, console.log);
const box = new SecretBox(Buffer.from(encryptionKey, 'hex'));
const key = generateSecretKey();
const sealedKey = box.seal(key);
const sealedCode = box.seal(String(deriveStartingCode(key)));
const hash = bcrypt.hashSync('benchpass', 10);

const client = new pg.Client({ connectionString: url });
await client.connect();
const t0 = Date.now();
async function step(title, sql, params = []) {
  const s = Date.now();
  const r = await client.query(sql, params);
  console.log(`${title}: ${r.rowCount ?? ''} rows in ${((Date.now() - s) / 1000).toFixed(1)} s`);
}

const { rows } = await client.query(`SELECT count(*)::int AS n FROM organizations WHERE organization_id = 'big'`);
if (rows[0].n > 0) {
  console.log('The benchmark data is already there (use --fresh to rebuild it).');
  await client.end();
  await stop();
  process.exit(0);
}

await client.query(`SET synchronous_commit = off`);
const FIRST = `ARRAY['Amina','Baraka','Chausiku','Daudi','Eshe','Faraji','Gathoni','Hamisi','Imani','Jabari','Kamau','Lulu','Makena','Njeri','Omondi','Pendo','Rehema','Sefu','Tumaini','Wanjiru','Zawadi','Otieno','Akinyi','Mwangi','Chebet','Kiprop','Nafula','Wekesa','Auma','Mutua']`;
const LAST = `ARRAY['Achieng','Kariuki','Mohamed','Odhiambo','Wambui','Kiptoo','Njoroge','Ochieng','Mwende','Kilonzo','Barasa','Mugo','Ndungu','Karanja','Owino','Kimani','Langat','Onyango','Maina','Wafula']`;
const COUNTIES = `ARRAY['Nairobi','Kisumu','Mombasa','Nakuru','Kakamega','Machakos','Kiambu','Meru','Kilifi','Bungoma','Kisii','Nyeri','Turkana','Garissa','Kitui']`;
const OCCUPATIONS = `ARRAY['Farmer','Teacher','Trader','Driver','Nurse','Tailor','Mechanic','Fisher','Student','Shopkeeper']`;

await step('organizations', `INSERT INTO organizations (organization_id, name, external_key, app)
  SELECT 'big', 'Large Distributor Ltd', 'BIG-001', 'kidogo'::"AppType"
  UNION ALL SELECT 'small-' || lpad(g::text, 2, '0'), 'Small Org ' || g, NULL, 'kidogo'::"AppType" FROM generate_series(1, 20) g`);
await step('users', `INSERT INTO users (username, email, password_hash, role, organization_id)
  SELECT CASE WHEN o.organization_id = 'big' THEN 'bench' ELSE 'bench-' || o.organization_id END,
         o.organization_id || '@bench.local', $1, 'owner'::"UserRole", o.organization_id FROM organizations o`, [hash]);
await step('templates', `INSERT INTO payment_templates (template_id, organization_id, template_name, description, deposit_made,
    daily_price, activation_price, grace_period_days, currency, payment_method, frequency, free_code_price)
  SELECT g, 'big', 'Plan ' || g, 'Solar plan ' || g, 1000, 30 + (g % 10) * 10, 500, g % 5, 'KES', 'mobile_money', 'daily', 20000 + g * 500
  FROM generate_series(1, 50) g`);

const customers = (org, from, count) => `INSERT INTO customers (customer_id, organization_id, customer_name, id_number, phone_contact,
    phone_normalized, email, country, gender, county, constituency, ward, village, occupation, preferred_language, customer_type, status,
    agent_id, created_at)
  SELECT g, '${org}',
    (${FIRST})[1 + g % 30] || ' ' || (${LAST})[1 + (g / 30) % 20] || ' ' || (${LAST})[1 + (g / 600) % 20],
    (20000000 + g)::text,
    '07' || lpad(((g::bigint * 48271) % 100000000)::text, 8, '0'),
    '2547' || lpad(((g::bigint * 48271) % 100000000)::text, 8, '0'),
    CASE WHEN g % 3 = 0 THEN lower((${FIRST})[1 + g % 30] || '.' || (${LAST})[1 + (g / 30) % 20]) || g || '@'
      || (ARRAY['gmail.com','yahoo.com','outlook.com','safaricom.co.ke'])[1 + g % 4] END,
    'Kenya', CASE WHEN g % 2 = 0 THEN 'Female' ELSE 'Male' END,
    (${COUNTIES})[1 + g % 15], 'Constituency ' || (g % 290), 'Ward ' || (g % 1450), 'Village ' || (g % 9000),
    (${OCCUPATIONS})[1 + g % 10], 'English', 'individual',
    CASE WHEN g % 20 = 0 THEN 'inactive' ELSE 'active' END,
    -- 200 sales agents; every 20th customer with none (bench/agents.mjs times the agent paths on their own).
    CASE WHEN g % 20 = 1 THEN NULL ELSE 'AGT-' || lpad((1 + g % 200)::text, 3, '0') END,
    now() - ((${count} - (g - ${from})) * interval '25 seconds')
  FROM generate_series(${from}, ${from + count - 1}) g`;
await step('customers (large organization)', customers('big', 1, N));
for (let i = 1; i <= 20; i++) {
  const org = `small-${String(i).padStart(2, '0')}`;
  await client.query(customers(org, N + (i - 1) * 1000 + 1, 1000));
}
console.log('customers (20 small organizations): 20,000 rows');

// Twenty stock locations (a warehouse and its shops), each holding or having given out a twentieth of the devices.
await step('stock locations', `INSERT INTO stock_locations (organization_id, location_id, name)
  SELECT 'big', g, CASE WHEN g = 1 THEN 'Central Warehouse' ELSE 'Shop ' || lpad(g::text, 2, '0') END FROM generate_series(1, 20) g`);
await step('devices', `INSERT INTO items (item_id, organization_id, serial_number, serial_normalized, product_name, product_type,
    manufacturer, model, price, status, product_oem, is_assigned, customer_id, assigned_at, secret_key_enc, starting_code_enc,
    token_count, credit, total_paid, activated_at, credit_until, created_at, location_id)
  SELECT g, 'big', 'SHS-' || lpad(g::text, 7, '0'), 'SHS' || lpad(g::text, 7, '0'),
    (ARRAY['Solar Home System 50W','Solar Lamp Pro','Smart Phone A10','E-Bike Lite','Solar TV Kit'])[1 + g % 5], 'solar',
    (ARRAY['SunCo','Lumina','Voltaic','Ampere'])[1 + g % 4], 'M' || (g % 12), 20000 + (g % 10) * 1000,
    CASE WHEN g % 10 = 0 THEN 'available'::"ItemStatus" ELSE 'assigned'::"ItemStatus" END,
    (ARRAY['sunco','lumina','voltaic','ampere'])[1 + g % 4],
    g % 10 <> 0, CASE WHEN g % 10 <> 0 THEN g END, CASE WHEN g % 10 <> 0 THEN now() - interval '200 days' END,
    $1, $2, CASE WHEN g % 100 = 7 THEN 1000 ELSE 10 END, (g % 50), 5000 + (g % 100) * 100,
    CASE WHEN g % 10 <> 0 THEN now() - interval '199 days' END,
    now() + ((g % 60) - 20) * interval '1 day', now() - interval '300 days' + g * interval '1 second', 1 + g % 20
  FROM generate_series(1, ${N}) g`, [sealedKey, sealedCode]);
await step('template assignments', `INSERT INTO template_assignments (organization_id, customer_id, template_id, is_active, assigned_at)
  SELECT 'big', g, 1 + g % 50, true, now() - interval '200 days' FROM generate_series(1, ${N}) g WHERE g % 10 <> 0`);
await step('item assignments', `INSERT INTO item_assignments (organization_id, item_id, customer_id, assigned_at)
  SELECT 'big', g, g, now() - interval '200 days' FROM generate_series(1, ${N}) g WHERE g % 10 <> 0`);
// A busy collections team's calls over the last 180 days, one each on N / 10 of the assigned devices, 60% of them
// promises to pay up to a week ahead, written before the payments so that
// the payments' trigger marks the promises paid as it does for the API's own writes (Collections' Promises list).
await step('collection contacts', `INSERT INTO collection_contacts (organization_id, item_id, customer_id, outcome, promised_on, created_at)
  SELECT 'big', i, i, CASE WHEN g % 5 < 3 THEN 'promised_to_pay' ELSE 'no_answer' END::"ContactOutcome",
    CASE WHEN g % 5 < 3 THEN (now() - make_interval(days => g % 180))::date + g % 8 END,
    now() - make_interval(days => g % 180, secs => g % 86400)
  FROM (SELECT g, ${assigned('(g::bigint * 7919) % ' + ASSIGNED)} AS i FROM generate_series(1, ${Math.floor(N / 10)}) g) s`);
// After-sales work: N / 10 service tickets over about two years (85% resolved, 10% open, 5% in progress), on assigned
// devices, all assigned to the bench user (its Assigned to Me holds 15,000 active ones); the trigger keeps the counts.
await step('service tickets', `INSERT INTO service_tickets (organization_id, item_id, customer_id, category, status, description, resolution,
    assigned_to, opened_by, opened_at, updated_at, resolved_at)
  SELECT 'big', i, i, (ARRAY['device_fault', 'installation', 'token_problem', 'billing', 'other'])[1 + g % 5]::"TicketCategory",
    CASE WHEN g % 20 < 17 THEN 'resolved' WHEN g % 20 < 19 THEN 'open' ELSE 'in_progress' END::"TicketStatus",
    'Bench ticket ' || g, CASE WHEN g % 20 < 17 THEN 'Bench fix ' || g END, u.user_id, u.user_id, ts, ts,
    CASE WHEN g % 20 < 17 THEN ts + interval '2 days' END
  FROM (SELECT g, ${assigned('(g::bigint * 7919) % ' + ASSIGNED)} AS i, now() - make_interval(mins => (${Math.floor(N / 10)} - g) * 10) AS ts
        FROM generate_series(1, ${Math.floor(N / 10)}) g) s, (SELECT user_id FROM users WHERE username = 'bench') u`);
await step('payments', `INSERT INTO payments (payment_id, organization_id, customer_id, item_id, amount, currency, payment_method, status,
    transaction_code, account_reference, payer_phone, payer_name, source, days_bought, credit_after, paid_at, created_at, applied_at)
  SELECT g, 'big', c, c, (ARRAY[50,100,150,200,300,500,1000])[1 + g % 7], 'KES', 'mobile_money',
    CASE WHEN g % 50 = 0 THEN 'pending'::"PaymentStatus" WHEN g % 97 = 0 THEN 'failed'::"PaymentStatus" ELSE 'completed'::"PaymentStatus" END,
    'BK' || lpad(g::text, 9, '0'), 'SHS' || lpad(c::text, 7, '0'), '2547' || lpad((c % 100000000)::text, 8, '0'),
    'Bench Payer', 'sms', 1 + g % 10, 0, ts, ts, CASE WHEN g % 50 <> 0 THEN ts END
  FROM (SELECT g, ${assigned('(g::bigint * 7919) % ' + ASSIGNED)} AS c, now() - (g % 525600) * interval '1 minute' AS ts
        FROM generate_series(1, ${PAYMENTS}) g) s`);
// Five or six tokens per assigned device, counted up to the device's own count (10, or 1,000 for every 100th) as a real
// history is: counts above it collided with the tokens the payments scenario issues once a device had taken 45 of them.
await step('token logs', `INSERT INTO token_logs (token_log_id, organization_id, item_id, serial_number, customer_id, customer_name, token_value,
    token_type, token_count, value, days_generated, status, is_valid, was_assigned, generated_by, created_at)
  SELECT g, 'big', i, 'SHS-' || lpad(i::text, 7, '0'), i, 'Bench Customer', lpad(((g::bigint * 104729) % 1000000000)::text, 9, '0'),
    CASE WHEN k = 0 THEN 'activation'::"TokenType" ELSE 'add_time'::"TokenType" END, CASE WHEN i % 100 = 7 THEN 990 ELSE 0 END + k * 2, 1 + g % 30, 1 + g % 30,
    'success', true, true, 'system', now() - (g % 525600) * interval '1 minute'
  FROM (SELECT g, ${assigned(`(g - 1) % ${ASSIGNED}`)} AS i, (g - 1) / ${ASSIGNED} AS k FROM generate_series(1, ${TOKENS}) g) s`);
// The audit log as the API writes it: an entry per token (the payment pipeline's, by nobody), and 100,000 by five
// staff users over the year, of every kind (the Activity Log page's filters by kind and by user).
await step('audit log', `INSERT INTO audit_logs (organization_id, actor_username, action, entity_type, entity_id, description, metadata, created_at)
  SELECT 'big', NULL, 'token.generate', 'item', item_id::text,
    token_type || ' token (count ' || token_count || ', ' || days_generated || ' days) for device ' || serial_number || ' by system',
    jsonb_build_object('serial_number', serial_number, 'token_type', token_type, 'token_count', token_count, 'days', days_generated),
    created_at
  FROM token_logs WHERE organization_id = 'big'
  UNION ALL
  SELECT 'big', (ARRAY['bench', 'amina', 'otieno', 'wanjiru', 'kamau'])[1 + g % 5],
    (ARRAY['customer.created', 'item.assigned', 'payment.match', 'auth.login', 'template.assigned', 'collection.contact_logged',
           'token.generate', 'payment.reverse', 'customer.status_changed', 'user.updated'])[1 + (g / 5) % 10],
    'bench', g::text, 'Bench staff entry ' || g, NULL, now() - (g % 525600) * interval '1 minute'
  FROM generate_series(1, 100000) g`);
await step('messages', `INSERT INTO messages (message_id, organization_id, received_message, sender, status, transaction_code, amount,
    payment_id, item_id, forwarded_message, recipient_number, delivery_status, received_at, created_at)
  SELECT g, 'big', 'BK' || lpad(g::text, 9, '0') || ' Confirmed. Ksh100.00 received from BENCH PAYER 2547' || lpad((g % 100000000)::text, 8, '0'),
    'MPESA', 'processed', 'BK' || lpad(g::text, 9, '0'), 100, g, (1 + (g::bigint * 7919) % ${N})::int,
    'Kidogo: Payment of KES 100.00 received. Token: 123 456 789 (2 days).', '2547' || lpad((g % 100000000)::text, 8, '0'),
    'sent', now() - (g % 525600) * interval '1 minute', now() - (g % 525600) * interval '1 minute'
  FROM generate_series(1, ${MESSAGES}) g`);
for (const [table, col] of [['stock_locations', 'location_id'], ['customers', 'customer_id'], ['items', 'item_id'], ['payment_templates', 'template_id'], ['payments', 'payment_id'], ['token_logs', 'token_log_id'], ['messages', 'message_id']]) {
  await client.query(`SELECT setval(pg_get_serial_sequence('${table}', '${col}'), (SELECT max(${col}) FROM ${table}))`);
}
await step('analyze', 'ANALYZE');
console.log(`Seeded in ${((Date.now() - t0) / 1000).toFixed(0)} s. Sign in as bench / benchpass (organization "big").`);
await client.end();
await stop();
