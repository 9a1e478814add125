import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Device } from '@kidogo/openpaygo';
import {
  ZErrorSchema,
  ZOemListReplySchema,
  ZProductOemConfigReplySchema,
  ZServiceBlockedSchema,
  ZTokenLogListSchema,
  ZTokenReplySchema,
  ZUpdateTokenCountReplySchema,
} from '@kidogo/contracts';
import { REPO_ROOT } from '../src/config/config.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { Prisma } from '../src/generated/prisma/client.js';
import { ANCHORED_FROM, CACHED_COUNT_MIN_ROWS } from '../src/common/list-counts.js';
import { isTokenNumber } from '../src/tokens/token-log-list.js';
import { seedCustomerWithDevice, seedItem, seedOrg, seedTenant, seedTokenLog, seedUser } from './support/factories.js';

const NOW = new Date();

function deviceFor(item: { secret: { secretKey: string; startingCode: number } }, opts: { restricted?: boolean; extended?: boolean; divider?: number; count?: number } = {}) {
  return new Device(
    {
      secretKey: item.secret.secretKey,
      startingCode: item.secret.startingCode,
      restrictedDigitSet: opts.restricted ?? false,
      extendedToken: opts.extended ?? false,
      valueDivider: opts.divider ?? 1,
    },
    opts.count ?? 0,
  );
}

describe('tokens', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  describe('POST /payg/generate-token-by-days', () => {
    it('issues an activation token first, then add-time tokens, each accepted by the device for the requested days', async () => {
      const { user, org } = await seedTenant(t, { role: 'staff' });
      const { item, customer } = await seedCustomerWithDevice(t, org.id);
      const device = deviceFor(item);

      const first = ZTokenReplySchema.parse(
        (await t.http.post('/payg/generate-token-by-days').set(user.auth).send({ serial_number: item.serial_number, number_of_days: 7 }).expect(200)).body,
      );
      expect(first).toMatchObject({ code_type: 'activation', days: 7, token_count: 2, serial_number: item.serial_number, isOrganizationSuspended: false });
      expect(first.code_token).toMatch(/^\d{9}$/);
      const r1 = device.enterToken(first.code_token, NOW);
      expect(r1).toMatchObject({ status: 'VALID', type: 'ADD_TIME', value: 7, count: 2, days: 7 });

      const second = ZTokenReplySchema.parse(
        (await t.http.post('/payg/generate-token-by-days').set(user.auth).send({ serial_number: item.serial_number, number_of_days: 30 }).expect(200)).body,
      );
      expect(second).toMatchObject({ code_type: 'add_time', days: 30, token_count: 4 });
      expect(device.enterToken(second.code_token, NOW)).toMatchObject({ status: 'VALID', days: 30 });
      expect(Math.round(device.daysLeft(NOW))).toBe(37);
      // The same token again is refused by the device.
      expect(device.enterToken(second.code_token, NOW).status).toBe('ALREADY_USED');

      const logs = await t.db.db.tokenLog.findMany({ where: { organization_id: org.id, item_id: item.id }, orderBy: { token_count: 'asc' } });
      expect(logs.map((l) => [l.token_type, l.token_count, Number(l.days_generated), l.was_assigned, l.customer_name, l.generated_by])).toEqual([
        ['activation', 2, 7, true, customer.customer_name, user.username],
        ['add_time', 4, 30, true, customer.customer_name, user.username],
      ]);
      const row = await t.db.db.item.findUniqueOrThrow({ where: { organization_id_id: { organization_id: org.id, id: item.id } } });
      expect(row.token_count).toBe(4);
      // Time given by staff: the account is activated only by payments reaching the plan's upfront amount.
      expect(row.activated_at).toBeNull();
      const daysUntil = (row.credit_until!.getTime() - Date.now()) / 86_400_000;
      expect(daysUntil).toBeGreaterThan(36.9);
      expect(daysUntil).toBeLessThan(37.01);
      const audit = await t.db.platform.auditLog.findMany({ where: { organization_id: org.id, action: 'token.generate' } });
      expect(audit).toHaveLength(2);
      expect(audit[0]!.actor_username).toBe(user.username);
    });

    it('gives a token the device simulator CLI accepts for the requested days', async () => {
      const { user, org } = await seedTenant(t);
      const item = await seedItem(t, org.id);
      const res = ZTokenReplySchema.parse(
        (await t.http.post('/payg/generate-token-by-days').set(user.auth).send({ serial_number: item.serial_number, number_of_days: 12 }).expect(200)).body,
      );
      // An unassigned device gets add-time tokens; the log says it was not assigned.
      expect(res.code_type).toBe('add_time');
      const log = await t.db.db.tokenLog.findFirstOrThrow({ where: { organization_id: org.id, item_id: item.id } });
      expect(log.was_assigned).toBe(false);
      expect(log.customer_id).toBeNull();

      const cli = resolve(REPO_ROOT, 'packages/openpaygo/dist/device-sim.js');
      const state = join(mkdtempSync(join(tmpdir(), 'kidogo-sim-')), 'device.json');
      const run = (...args: string[]) => execFileSync(process.execPath, [cli, ...args, '--state', state], { encoding: 'utf8' });
      run('init', '--key', item.secret.secretKey, '--starting-code', String(item.secret.startingCode), '--count', '0');
      const out = run('enter', res.code_token, '--now', '2026-01-01T00:00:00Z');
      expect(out).toMatch(/^VALID ADD_TIME 12 days \(count 2\)/);
      expect(run('status', '--now', '2026-01-03T00:00:00Z')).toMatch(/Credit left: 10\.0 days/);
    });

    it('refuses 0, negatives, fractions, strings, a missing value and more than 995 days with a 400 naming number_of_days', async () => {
      const { user, org } = await seedTenant(t);
      const item = await seedItem(t, org.id);
      for (const bad of [0, -3, 1.5, '5', null, undefined, true]) {
        const res = await t.http.post('/payg/generate-token-by-days').set(user.auth).send({ serial_number: item.serial_number, number_of_days: bad }).expect(400);
        expect(ZErrorSchema.parse(res.body).detail).toMatch(/^number_of_days: /);
      }
      const big = await t.http.post('/payg/generate-token-by-days').set(user.auth).send({ serial_number: item.serial_number, number_of_days: 996 }).expect(400);
      expect(big.body.detail).toBe('number_of_days: must be at most 995 (issue several tokens for longer periods)');
      const noSerial = await t.http.post('/payg/generate-token-by-days').set(user.auth).send({ number_of_days: 3 }).expect(400);
      expect(noSerial.body.detail).toBe('serial_number: is required');
      // 995 is the largest single token.
      const max = await t.http.post('/payg/generate-token-by-days').set(user.auth).send({ serial_number: item.serial_number, number_of_days: 995 }).expect(200);
      expect(deviceFor(item).enterToken(max.body.code_token, NOW)).toMatchObject({ status: 'VALID', days: 995 });
      expect(await t.db.db.tokenLog.count({ where: { organization_id: org.id } })).toBe(1);
    });

    it('answers 404 for an unknown serial and for another organization\'s device, 409 for a retired one', async () => {
      const a = await seedTenant(t);
      const b = await seedTenant(t);
      const itemOfA = await seedItem(t, a.org.id);
      await t.http.post('/payg/generate-token-by-days').set(a.user.auth).send({ serial_number: 'NOPE-1', number_of_days: 1 }).expect(404);
      const res = await t.http.post('/payg/generate-token-by-days').set(b.user.auth).send({ serial_number: itemOfA.serial_number, number_of_days: 1 }).expect(404);
      expect(res.body.detail).toBe('Device not found');
      await t.http.post('/payg/generate-token').set(b.user.auth).send({ serial_number: itemOfA.serial_number, type: 'unlock' }).expect(404);
      await t.http.post('/payg/update-token-count').set(b.user.auth).send({ serial_number: itemOfA.serial_number, new_token_count: 50 }).expect(404);
      const row = await t.db.db.item.findUniqueOrThrow({ where: { organization_id_id: { organization_id: a.org.id, id: itemOfA.id } } });
      expect(row.token_count).toBe(0);
      expect(await t.db.db.tokenLog.count({ where: { organization_id: a.org.id } })).toBe(0);

      const retired = await seedItem(t, a.org.id, { status: 'retired' });
      const r = await t.http.post('/payg/generate-token-by-days').set(a.user.auth).send({ serial_number: retired.serial_number, number_of_days: 1 }).expect(409);
      expect(r.body.detail).toMatch(/retired/);
    });

    it('finds a device by its serial ignoring case, spaces and dashes', async () => {
      const { user, org } = await seedTenant(t);
      const item = await seedItem(t, org.id, { serial_number: 'KD-77-ab' });
      const res = await t.http.post('/payg/generate-token-by-days').set(user.auth).send({ serial_number: 'kd 77 AB', number_of_days: 2 }).expect(200);
      expect(res.body.serial_number).toBe('KD-77-ab');
      expect(deviceFor(item).enterToken(res.body.code_token, NOW)).toMatchObject({ status: 'VALID', days: 2 });
    });

    it('gives 50 concurrent requests for one device 50 different consecutive counts and 50 log rows', async () => {
      const { user, org } = await seedTenant(t);
      const item = await seedItem(t, org.id);
      const replies = await Promise.all(
        Array.from({ length: 50 }, () =>
          t.http.post('/payg/generate-token-by-days').set(user.auth).send({ serial_number: item.serial_number, number_of_days: 1 }),
        ),
      );
      expect(replies.map((r) => r.status)).toEqual(Array(50).fill(200));
      const counts = replies.map((r) => ZTokenReplySchema.parse(r.body).token_count).sort((x, y) => x - y);
      expect(counts).toEqual(Array.from({ length: 50 }, (_, i) => 2 * (i + 1)));
      expect(new Set(replies.map((r) => r.body.code_token)).size).toBe(50);
      expect(await t.db.db.tokenLog.count({ where: { organization_id: org.id, item_id: item.id } })).toBe(50);
      const row = await t.db.db.item.findUniqueOrThrow({ where: { organization_id_id: { organization_id: org.id, id: item.id } } });
      expect(row.token_count).toBe(100);
      // The device accepts them in count order (and within its window, out of order too).
      const device = deviceFor(item);
      const byCount = [...replies].sort((x, y) => x.body.token_count - y.body.token_count);
      for (const r of byCount) expect(device.enterToken(r.body.code_token, NOW).status).toBe('VALID');
    });

    it('answers a suspended or disabled organization with the 403 SERVICE_* body and issues nothing', async () => {
      for (const status of ['suspended', 'disabled'] as const) {
        const { user, org } = await seedTenant(t, { status });
        const item = await seedItem(t, org.id);
        for (const [path, body] of [
          ['/payg/generate-token-by-days', { serial_number: item.serial_number, number_of_days: 1 }],
          ['/payg/generate-token', { serial_number: item.serial_number, type: 'unlock' }],
          ['/payg/update-token-count', { serial_number: item.serial_number, new_token_count: 9 }],
          ['/payg/config/product-oem/upsert', { product_oem: 'X' }],
        ] as const) {
          const res = await t.http.post(path).set(user.auth).send(body).expect(403);
          expect(ZServiceBlockedSchema.parse(res.body).detail.error).toBe(status === 'suspended' ? 'SERVICE_SUSPENDED' : 'SERVICE_DISABLED');
        }
        await t.http.get('/payg/metrics/token-generation-logs').set(user.auth).expect(403);
        await t.http.get('/payg/config/oems/list').set(user.auth).expect(403);
        expect(await t.db.db.tokenLog.count({ where: { organization_id: org.id } })).toBe(0);
      }
    });
  });

  describe('POST /payg/generate-token', () => {
    it('issues set_time, unlock and counter_sync tokens the device reads as such, for owners and admins only', async () => {
      const { user, org } = await seedTenant(t);
      const admin = await seedUser(t, { organization_id: org.id, role: 'admin' });
      const staff = await seedUser(t, { organization_id: org.id, role: 'staff' });
      const item = await seedItem(t, org.id);
      const device = deviceFor(item);

      const denied = await t.http.post('/payg/generate-token').set(staff.auth).send({ serial_number: item.serial_number, type: 'add_time', value: 3 }).expect(403);
      expect(denied.body.detail).toMatch(/roles/);

      const add = ZTokenReplySchema.parse((await t.http.post('/payg/generate-token').set(user.auth).send({ serial_number: item.serial_number, type: 'add_time', value: 10 }).expect(200)).body);
      expect(add).toMatchObject({ code_type: 'add_time', days: 10, token_count: 2 });
      expect(device.enterToken(add.code_token, NOW)).toMatchObject({ status: 'VALID', days: 10 });

      const set = ZTokenReplySchema.parse((await t.http.post('/payg/generate-token').set(admin.auth).send({ serial_number: item.serial_number, type: 'set_time', value: 3 }).expect(200)).body);
      expect(set).toMatchObject({ code_type: 'set_time', days: 3, token_count: 3 });
      expect(device.enterToken(set.code_token, NOW)).toMatchObject({ status: 'VALID', type: 'SET_TIME', days: 3 });
      expect(Math.round(device.daysLeft(NOW))).toBe(3);

      const sync = ZTokenReplySchema.parse((await t.http.post('/payg/generate-token').set(user.auth).send({ serial_number: item.serial_number, type: 'counter_sync' }).expect(200)).body);
      expect(sync).toMatchObject({ code_type: 'counter_sync', days: 0, token_count: 5 });
      expect(device.enterToken(sync.code_token, NOW)).toMatchObject({ status: 'VALID', type: 'COUNTER_SYNC' });

      const unlock = ZTokenReplySchema.parse((await t.http.post('/payg/generate-token').set(user.auth).send({ serial_number: item.serial_number, type: 'unlock' }).expect(200)).body);
      expect(unlock).toMatchObject({ code_type: 'unlock', days: 0, token_count: 7 });
      expect(device.enterToken(unlock.code_token, NOW)).toMatchObject({ status: 'VALID', type: 'DISABLE_PAYG' });
      expect(device.unlockedForever).toBe(true);
      const row = await t.db.db.item.findUniqueOrThrow({ where: { organization_id_id: { organization_id: org.id, id: item.id } } });
      expect(row.paid_off_at).not.toBeNull();
      expect(row.credit_until).toBeNull();

      const superAdminOrg = await seedOrg(t);
      const superAdmin = await seedUser(t, { organization_id: superAdminOrg.id, role: 'super_admin' });
      // The super admin works in its own organization: another organization's device is not found.
      await t.http.post('/payg/generate-token').set(superAdmin.auth).send({ serial_number: item.serial_number, type: 'unlock' }).expect(404);
    });

    it('validates type and value', async () => {
      const { user, org } = await seedTenant(t);
      const item = await seedItem(t, org.id);
      const cases: Array<[Record<string, unknown>, RegExp]> = [
        [{ type: 'add_time' }, /^value: is required for add_time/],
        [{ type: 'set_time' }, /^value: is required for set_time/],
        [{ type: 'add_time', value: 0 }, /^value: must be at least 1/],
        [{ type: 'add_time', value: 1000 }, /^value: must be at most 995/],
        [{ type: 'add_time', value: '4' }, /^value: must be a whole number/],
        [{ type: 'activation', value: 4 }, /^type: must be one of add_time, set_time, unlock, counter_sync/],
        [{ type: 'bogus' }, /^type: /],
      ];
      for (const [body, message] of cases) {
        const res = await t.http.post('/payg/generate-token').set(user.auth).send({ serial_number: item.serial_number, ...body }).expect(400);
        expect(res.body.detail).toMatch(message);
      }
      expect(await t.db.db.tokenLog.count({ where: { organization_id: org.id } })).toBe(0);
    });
  });

  describe('OEM token settings', () => {
    it('gives restricted-digit, extended and divided tokens the device decodes, and lists the settings', async () => {
      const { user, org } = await seedTenant(t);
      const staff = await seedUser(t, { organization_id: org.id, role: 'staff' });
      await t.http.post('/payg/config/product-oem/upsert').set(staff.auth).send({ product_oem: 'KeypadCo', restricted_digit_set: true }).expect(403);
      const saved = ZProductOemConfigReplySchema.parse(
        (await t.http.post('/payg/config/product-oem/upsert').set(user.auth).send({ product_oem: 'KeypadCo', restricted_digit_set: true }).expect(200)).body,
      );
      expect(saved.data).toMatchObject({ product_oem: 'KeypadCo', restricted_digit_set: true, extended_token: false, value_divider: 1, max_days_per_token: 995 });
      await t.http.post('/payg/config/product-oem/upsert').set(user.auth).send({ product_oem: 'BigCo', extended_token: true }).expect(200);
      await t.http.post('/payg/config/product-oem/upsert').set(user.auth).send({ product_oem: 'BothCo', extended_token: true, restricted_digit_set: true }).expect(200);
      await t.http.post('/payg/config/product-oem/upsert').set(user.auth).send({ product_oem: 'QuarterCo', value_divider: '4' }).expect(200);

      const restricted = await seedItem(t, org.id, { product_oem: 'KeypadCo' });
      const r = ZTokenReplySchema.parse((await t.http.post('/payg/generate-token-by-days').set(user.auth).send({ serial_number: restricted.serial_number, number_of_days: 5 }).expect(200)).body);
      expect(r.code_token).toMatch(/^[1-4]{15}$/);
      expect(deviceFor(restricted, { restricted: true }).enterToken(r.code_token, NOW)).toMatchObject({ status: 'VALID', days: 5 });

      const extended = await seedItem(t, org.id, { product_oem: 'BigCo' });
      const e = ZTokenReplySchema.parse((await t.http.post('/payg/generate-token-by-days').set(user.auth).send({ serial_number: extended.serial_number, number_of_days: 9 }).expect(200)).body);
      expect(e.code_token).toMatch(/^\d{12}$/);
      expect(deviceFor(extended, { extended: true }).enterToken(e.code_token, NOW)).toMatchObject({ status: 'VALID', days: 9 });

      const both = await seedItem(t, org.id, { product_oem: 'BothCo' });
      const b = ZTokenReplySchema.parse((await t.http.post('/payg/generate-token-by-days').set(user.auth).send({ serial_number: both.serial_number, number_of_days: 3 }).expect(200)).body);
      expect(b.code_token).toMatch(/^[1-4]{20}$/);
      expect(deviceFor(both, { extended: true, restricted: true }).enterToken(b.code_token, NOW)).toMatchObject({ status: 'VALID', days: 3 });

      const quarter = await seedItem(t, org.id, { product_oem: 'QuarterCo' });
      const q = ZTokenReplySchema.parse((await t.http.post('/payg/generate-token-by-days').set(user.auth).send({ serial_number: quarter.serial_number, number_of_days: 10 }).expect(200)).body);
      expect(deviceFor(quarter, { divider: 4 }).enterToken(q.code_token, NOW)).toMatchObject({ status: 'VALID', value: 40, days: 10 });
      const log = await t.db.db.tokenLog.findFirstOrThrow({ where: { organization_id: org.id, item_id: quarter.id } });
      expect(log.value).toBe(40);
      // With divider 4 one token carries at most 248 days.
      const tooMany = await t.http.post('/payg/generate-token-by-days').set(user.auth).send({ serial_number: quarter.serial_number, number_of_days: 249 }).expect(400);
      expect(tooMany.body.detail).toMatch(/^number_of_days: must be at most 248 for this device/);

      const list = ZOemListReplySchema.parse((await t.http.get('/payg/config/oems/list').set(staff.auth).expect(200)).body);
      expect(list.data.map((o) => o.product_oem)).toEqual(['BigCo', 'BothCo', 'KeypadCo', 'QuarterCo']);
      expect(list.data.find((o) => o.product_oem === 'QuarterCo')!.max_days_per_token).toBe(248);

      // Replacing settings updates them in place.
      await t.http.post('/payg/config/product-oem/upsert').set(user.auth).send({ product_oem: 'KeypadCo', restricted_digit_set: false }).expect(200);
      const again = ZOemListReplySchema.parse((await t.http.get('/payg/config/oems/list').set(user.auth).expect(200)).body);
      expect(again.data).toHaveLength(4);
      expect(again.data.find((o) => o.product_oem === 'KeypadCo')!.restricted_digit_set).toBe(false);

      // Another organization sees none of them, and its settings do not touch this organization's devices.
      const other = await seedTenant(t);
      expect(ZOemListReplySchema.parse((await t.http.get('/payg/config/oems/list').set(other.user.auth).expect(200)).body).data).toEqual([]);
      await t.http.post('/payg/config/product-oem/upsert').set(other.user.auth).send({ product_oem: 'PlainCo', restricted_digit_set: true }).expect(200);
      const plain = await seedItem(t, org.id, { product_oem: 'PlainCo' });
      const p = await t.http.post('/payg/generate-token-by-days').set(user.auth).send({ serial_number: plain.serial_number, number_of_days: 1 }).expect(200);
      expect(p.body.code_token).toMatch(/^\d{9}$/);
      expect(p.body.code_token).not.toMatch(/^[1-4]{9}$/);
    });

    it('validates the settings', async () => {
      const { user } = await seedTenant(t);
      for (const [body, re] of [
        [{}, /^product_oem: is required/],
        [{ product_oem: 'X', value_divider: 0 }, /^value_divider: must be a positive number/],
        [{ product_oem: 'X', value_divider: -2 }, /^value_divider: must be a positive number/],
        [{ product_oem: 'X', value_divider: 'abc' }, /^value_divider: must be a positive number/],
        [{ product_oem: 'X', value_divider: 1e-11 }, /^value_divider: must be at least 0.0001/],
        [{ product_oem: 'X', restricted_digit_set: 'yes' }, /^restricted_digit_set: must be true or false/],
      ] as const) {
        const res = await t.http.post('/payg/config/product-oem/upsert').set(user.auth).send(body).expect(400);
        expect(res.body.detail).toMatch(re);
      }
    });
  });

  describe('POST /payg/update-token-count', () => {
    it('moves the count, so the next token uses the next count of its parity, and records who and why', async () => {
      const { user, org } = await seedTenant(t);
      const item = await seedItem(t, org.id);
      const res = ZUpdateTokenCountReplySchema.parse(
        (await t.http.post('/payg/update-token-count').set(user.auth).send({ serial_number: item.serial_number, new_token_count: 41, reason: 'device replaced its board' }).expect(200)).body,
      );
      // The spec's success text (§8), as the web shows it.
      expect(res).toMatchObject({ message: 'Token count updated successfully!', old_token_count: 0, new_token_count: 41 });
      const next = await t.http.post('/payg/generate-token-by-days').set(user.auth).send({ serial_number: item.serial_number, number_of_days: 2 }).expect(200);
      expect(next.body.token_count).toBe(42);
      expect(deviceFor(item, { count: 41 }).enterToken(next.body.code_token, NOW)).toMatchObject({ status: 'VALID', count: 42, days: 2 });
      const set = await t.http.post('/payg/generate-token').set(user.auth).send({ serial_number: item.serial_number, type: 'set_time', value: 1 }).expect(200);
      expect(set.body.token_count).toBe(43);

      const audit = await t.db.platform.auditLog.findFirstOrThrow({ where: { organization_id: org.id, action: 'token.count_update' } });
      expect(audit.actor_username).toBe(user.username);
      expect(audit.metadata).toMatchObject({ old_token_count: 0, new_token_count: 41, reason: 'device replaced its board' });

      // Going below an issued count would issue a count twice.
      const back = await t.http.post('/payg/update-token-count').set(user.auth).send({ serial_number: item.serial_number, new_token_count: 10 }).expect(409);
      expect(back.body.detail).toMatch(/never be issued twice/);
      await t.http.post('/payg/update-token-count').set(user.auth).send({ serial_number: item.serial_number, new_token_count: 100 }).expect(200);
    });

    it('validates new_token_count', async () => {
      const { user, org } = await seedTenant(t);
      const item = await seedItem(t, org.id, { token_count: 5 });
      for (const bad of [-1, 2.5, '7', false]) {
        const res = await t.http.post('/payg/update-token-count').set(user.auth).send({ serial_number: item.serial_number, new_token_count: bad }).expect(400);
        expect(res.body.detail).toMatch(/^new_token_count: /);
      }
      const row = await t.db.db.item.findUniqueOrThrow({ where: { organization_id_id: { organization_id: org.id, id: item.id } } });
      expect(row.token_count).toBe(5);
    });
  });

  describe('GET /payg/metrics/token-generation-logs', () => {
    it('lists newest first with paging and search over serial, customer name, token value and type; never another organization\'s', async () => {
      const { user, org } = await seedTenant(t);
      const { item, customer } = await seedCustomerWithDevice(t, org.id);
      const loose = await seedItem(t, org.id, { serial_number: 'WAREHOUSE-001' });
      const tokens: string[] = [];
      for (const days of [1, 2, 3]) {
        const r = await t.http.post('/payg/generate-token-by-days').set(user.auth).send({ serial_number: item.serial_number, number_of_days: days }).expect(200);
        tokens.push(r.body.code_token);
      }
      await t.http.post('/payg/generate-token').set(user.auth).send({ serial_number: loose.serial_number, type: 'set_time', value: 4 }).expect(200);

      const all = ZTokenLogListSchema.parse((await t.http.get('/payg/metrics/token-generation-logs').set(user.auth).expect(200)).body);
      expect(all.data.total).toBe(4);
      expect(all.data.items.map((i) => [i.serial_number, i.token_type, i.days_generated])).toEqual([
        ['WAREHOUSE-001', 'set_time', 4],
        [item.serial_number, 'add_time', 3],
        [item.serial_number, 'add_time', 2],
        [item.serial_number, 'activation', 1],
      ]);
      expect(all.data.items[1]).toMatchObject({ token_value: tokens[2], customer_name: customer.customer_name, status: 'success', is_valid: true, generated_by: user.username });

      const page = ZTokenLogListSchema.parse((await t.http.get('/payg/metrics/token-generation-logs?limit=2&offset=2').set(user.auth).expect(200)).body);
      expect(page.data.total).toBe(4);
      expect(page.data.items.map((i) => i.days_generated)).toEqual([2, 1]);

      const search = async (q: string) =>
        ZTokenLogListSchema.parse((await t.http.get('/payg/metrics/token-generation-logs').query({ search: q }).set(user.auth).expect(200)).body).data;
      expect((await search('warehouse')).items.map((i) => i.serial_number)).toEqual(['WAREHOUSE-001']);
      expect((await search(customer.customer_name.slice(0, 12).toLowerCase())).total).toBe(3);
      const spaced = tokens[0]!.replace(/(\d{3})(?=\d)/g, '$1 ');
      expect((await search(spaced)).items.map((i) => i.token_value)).toEqual([tokens[0]]);
      expect((await search('activation')).items.map((i) => i.token_type)).toEqual(['activation']);
      expect((await search('%')).total).toBe(0);

      // A token's number: its first page and total in one pass (see isTokenNumber), the same as counting and paging.
      expect(['424242', '424 242', ' 4242 42 ', '123456789'].map(isTokenNumber)).toEqual([true, true, true, true]);
      expect(['42424', 'SN-424242', '424242x', ''].map(isTokenNumber)).toEqual([false, false, false, false]);
      const numbered = await t.db.query<{ id: number }>(Prisma.sql`
        INSERT INTO token_logs (organization_id, item_id, serial_number, customer_name, token_value, token_type, token_count, value, days_generated, created_at)
        SELECT ${org.id}, ${item.id}::int, v.serial, 'Numbered', v.token, 'add_time', 100 + v.k, 1, 1, now() - v.k * interval '1 hour'
        FROM (VALUES (1, '424242001', ${item.serial_number}), (2, '114242421', ${item.serial_number}), (3, '555000111', 'SN-424242-X'), (4, '942424200', ${item.serial_number}))
          AS v(k, token, serial)
        RETURNING token_log_id AS id`);
      const newestFirst = numbered.map((r) => r.id);
      const numberPage = async (q: string, query: Record<string, number> = {}) =>
        ZTokenLogListSchema.parse((await t.http.get('/payg/metrics/token-generation-logs').query({ search: q, ...query }).set(user.auth).expect(200)).body).data;
      const first = await numberPage('424242', { limit: 3 });
      expect({ ids: first.items.map((i) => i.id), total: first.total }).toEqual({ ids: newestFirst.slice(0, 3), total: 4 });
      expect((await numberPage('424242', { limit: 3, offset: 3 })).items.map((i) => i.id)).toEqual(newestFirst.slice(3));
      // Typed in groups, it is a token's number: a serial matches the term as typed.
      for (const q of ['424 242', ' 4242 42 ']) {
        const spacedPage = await numberPage(q, { limit: 2 });
        expect({ q, ids: spacedPage.items.map((i) => i.id), total: spacedPage.total }).toEqual({ q, ids: [newestFirst[0], newestFirst[1]], total: 3 });
      }
      expect((await numberPage('555000111')).items.map((i) => [i.token_value, i.serial_number])).toEqual([['555000111', 'SN-424242-X']]);
      expect(await numberPage('987654321')).toEqual({ items: [], total: 0 });
      await t.db.query(Prisma.sql`DELETE FROM token_logs WHERE organization_id = ${org.id} AND customer_name = 'Numbered'`);

      await t.http.get('/payg/metrics/token-generation-logs?limit=101').set(user.auth).expect(400);
      await t.http.get('/payg/metrics/token-generation-logs?offset=-1').set(user.auth).expect(400);
      // Default page size 10.
      expect(ZTokenLogListSchema.parse((await t.http.get('/payg/metrics/token-generation-logs').set(user.auth)).body).data.items.length).toBe(4);

      const other = await seedTenant(t);
      const theirs = ZTokenLogListSchema.parse((await t.http.get('/payg/metrics/token-generation-logs').set(other.user.auth).expect(200)).body);
      expect(theirs.data).toEqual({ items: [], total: 0 });
      const theirSearch = ZTokenLogListSchema.parse(
        (await t.http.get('/payg/metrics/token-generation-logs').query({ search: item.serial_number }).set(other.user.auth).expect(200)).body,
      );
      expect(theirSearch.data.total).toBe(0);
    });

    it('finds tokens by the Status column\'s label: Success, Valid or Invalid', async () => {
      const { user, org } = await seedTenant(t);
      const item = await seedItem(t, org.id, { serial_number: 'LABEL-001' });
      const success = await seedTokenLog(t, org.id, item, { customer_name: 'Asha Moraa' });
      const valid = await seedTokenLog(t, org.id, item, { customer_name: 'Asha Moraa', status: 'valid', is_valid: true });
      const invalid = await seedTokenLog(t, org.id, item, { customer_name: 'Asha Moraa', status: 'failed', is_valid: false });
      const ids = async (q: string) =>
        ZTokenLogListSchema.parse((await t.http.get('/payg/metrics/token-generation-logs').query({ search: q }).set(user.auth).expect(200)).body).data.items.map(
          (i) => i.id,
        );
      expect(await ids('Success')).toEqual([success.id]);
      expect(await ids('INVALID')).toEqual([invalid.id]);
      // "valid" is in both labels, as "Asha" is in every name.
      expect(await ids('valid')).toEqual([invalid.id, valid.id]);
      expect(await ids('Asha')).toEqual([invalid.id, valid.id, success.id]);
      expect(await ids('failed')).toEqual([]);
    });

    it('pages through many tokens, with and without a search, exactly as ORDER BY and OFFSET on the rows would, and keeps a large search total', async () => {
      const { user, org } = await seedTenant(t);
      const item = await seedItem(t, org.id, { serial_number: 'BULK-TOKENS' });
      const n = 2.5 * ANCHORED_FROM + 37;
      // Tokens over 30 days (several per second, so the id breaks ties), every third one for another customer.
      await t.db.query(Prisma.sql`
        INSERT INTO token_logs (organization_id, item_id, serial_number, customer_name, token_value, token_type, token_count, value, days_generated, created_at)
        SELECT ${org.id}, ${item.id}::int, 'BULK-TOKENS', CASE WHEN g % 3 = 0 THEN 'Other Person' ELSE 'Zawadi Chebet' END,
               lpad((g * 7919 % 1000000000)::text, 9, '0'), 'add_time', g, 1, 1, now() - (g % 30) * interval '1 day' - (g / 3) * interval '1 second'
        FROM generate_series(1, ${n}::int) g`);
      const other = await seedTenant(t);
      const theirItem = await seedItem(t, other.org.id, { serial_number: 'BULK-TOKENS' });
      await seedTokenLog(t, other.org.id, theirItem, { customer_name: 'Zawadi Chebet' });

      const expectPages = async (search: string | null, matches: Prisma.Sql) => {
        const [{ total }] = await t.db.query<{ total: number }>(
          Prisma.sql`SELECT count(*)::int AS total FROM token_logs WHERE organization_id = ${org.id} AND ${matches}`,
        ) as [{ total: number }];
        for (const offset of [0, 9, ANCHORED_FROM - 5, ANCHORED_FROM, ANCHORED_FROM + 13, 2 * ANCHORED_FROM + 1, total - 3, total, total + 10]) {
          const reply = ZTokenLogListSchema.parse(
            (await t.http.get('/payg/metrics/token-generation-logs').query({ limit: 10, offset, ...(search ? { search } : {}) }).set(user.auth).expect(200)).body,
          );
          const expected = await t.db.query<{ id: number }>(Prisma.sql`
            SELECT token_log_id AS id FROM token_logs WHERE organization_id = ${org.id} AND ${matches}
            ORDER BY created_at DESC, token_log_id DESC LIMIT 10 OFFSET ${offset}::int`);
          expect({ offset, ids: reply.data.items.map((i) => i.id), total: reply.data.total }).toEqual({ offset, ids: expected.map((r) => r.id), total });
        }
        return total;
      };
      expect(await expectPages(null, Prisma.sql`true`)).toBe(n);
      expect(await expectPages('zawadi', Prisma.sql`customer_name = 'Zawadi Chebet'`)).toBeGreaterThanOrEqual(CACHED_COUNT_MIN_ROWS);
      const few = await expectPages('Other', Prisma.sql`customer_name = 'Other Person'`);
      expect(few).toBeGreaterThan(0);
      expect(few).toBeLessThan(CACHED_COUNT_MIN_ROWS);
      // The search total of many tokens is kept, with the places of its matches; a small one is counted every time.
      const kept = await t.db.query<{ key: string; total: number; places: number }>(Prisma.sql`
        SELECT key, total, cardinality(anchor_ids)::int AS places FROM list_counts WHERE organization_id = ${org.id} AND list = 'token_logs' ORDER BY key`);
      expect(kept.map((k) => [JSON.parse(k.key)[1], k.total, k.places > 0])).toEqual([['zawadi', n - few, true]]);
    });
  });
});
