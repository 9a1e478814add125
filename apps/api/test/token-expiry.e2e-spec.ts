import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { decodeToken, initialTokenState, type DeviceTokenState } from '@kidogo/openpaygo';
import { ZDeviceActivitySchema, ZTokenLogListSchema, ZTokenReplySchema, ZUsageMetricsSchema } from '@kidogo/contracts';
import { REPO_ROOT } from '../src/config/config.js';
import { Prisma } from '../src/generated/prisma/client.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { seedCustomerWithDevice, seedTenant, seedTokenLog, type SeededUser } from './support/factories.js';

/**
 * A token is expired (is_valid false) exactly when a device refuses it after
 * taking every token issued after it: the server's record is checked against
 * the OpenPAYGO decoder, token by token.
 */
describe('token expiry', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  type Secret = { secretKey: string; startingCode: number };
  const logsOf = (orgId: string, itemId: number) =>
    t.db.db.tokenLog.findMany({ where: { organization_id: orgId, item_id: itemId }, orderBy: { token_count: 'asc' } });

  /** Whether a device that took every newer token (and none of the older ones) still takes this one. */
  function takenAfterNewer(secret: Secret, tokens: { token_value: string; token_count: number }[], index: number): boolean {
    let state: DeviceTokenState = initialTokenState(1);
    const opts = { secretKey: secret.secretKey, startingCode: secret.startingCode };
    for (const newer of tokens.slice(index + 1)) {
      const r = decodeToken({ ...opts, state, token: newer.token_value });
      expect(r.status).toBe('VALID');
      state = r.state;
    }
    return decodeToken({ ...opts, state, token: tokens[index]!.token_value }).status === 'VALID';
  }

  async function expectRecordMatchesDevice(orgId: string, item: { id: number; secret: Secret }) {
    const logs = await logsOf(orgId, item.id);
    const device = logs.map((_, i) => takenAfterNewer(item.secret, logs, i));
    expect(logs.map((l) => l.is_valid)).toEqual(device);
    return logs;
  }

  const byDays = (user: SeededUser, serial: string, days: number) =>
    t.http.post('/payg/generate-token-by-days').set(user.auth).send({ serial_number: serial, number_of_days: days }).expect(200);

  it('keeps the 16-count window of add-time tokens, and a set-time token closes every older one', async () => {
    const { user, org } = await seedTenant(t, { role: 'owner' });
    const { item } = await seedCustomerWithDevice(t, org.id);

    for (let i = 0; i < 10; i++) ZTokenReplySchema.parse((await byDays(user, item.serial_number, 1 + i)).body);
    let logs = await expectRecordMatchesDevice(org.id, item);
    // Counts 2..20: the device takes an unused add-time token down to 16 counts below its newest (20).
    expect(logs.filter((l) => !l.is_valid).map((l) => l.token_count)).toEqual([2, 4]);

    const setTime = ZTokenReplySchema.parse(
      (await t.http.post('/payg/generate-token').set(user.auth).send({ serial_number: item.serial_number, type: 'set_time', value: 5 }).expect(200)).body,
    );
    expect(setTime.token_count).toBe(21);
    logs = await expectRecordMatchesDevice(org.id, item);
    expect(logs.filter((l) => l.is_valid).map((l) => l.token_count)).toEqual([21]);

    // A payment's token closes the set-time token (only add-time tokens are taken below the newest count).
    await t.http.post('/payg/payments').set(user.auth).send({ serial_number: item.serial_number, payment_method: 'cash', amount: 200 }).expect(201);
    logs = await expectRecordMatchesDevice(org.id, item);
    expect(logs.filter((l) => l.is_valid).map((l) => l.token_count)).toEqual([22]);

    // The dashboard's Token Management card and the lists say the same.
    const usage = ZUsageMetricsSchema.parse((await t.http.get('/payg/metrics/usage').set(user.auth).expect(200)).body);
    expect({ total: usage.tokens_total, active: usage.tokens_active, expired: usage.tokens_expired }).toEqual({ total: 12, active: 1, expired: 11 });
    const list = (search: string) =>
      t.http.get('/payg/metrics/token-generation-logs').query({ search, limit: 50 }).set(user.auth).expect(200).then((r) => ZTokenLogListSchema.parse(r.body).data);
    expect((await list('expired')).total).toBe(11);
    expect((await list('success')).items.map((l) => l.token_count)).toEqual([22]);
    const activity = ZDeviceActivitySchema.parse((await t.http.get(`/payg/devices/${item.serial_number}/activity`).query({ limit: 50 }).set(user.auth).expect(200)).body);
    const history = activity.data.token_history.items;
    expect(history.filter((h) => h.is_valid).map((h) => h.token)).toEqual([logs.at(-1)!.token_value]);
  });

  it('an unlock token closes the older ones; a count set by hand expires what the device can no longer take', async () => {
    const { user, org } = await seedTenant(t, { role: 'owner' });
    const first = await seedCustomerWithDevice(t, org.id);
    for (let i = 0; i < 3; i++) await byDays(user, first.item.serial_number, 3);
    await t.http.post('/payg/generate-token').set(user.auth).send({ serial_number: first.item.serial_number, type: 'unlock' }).expect(200);
    const logs = await expectRecordMatchesDevice(org.id, first.item);
    expect(logs.map((l) => [l.token_type, l.is_valid])).toEqual([
      ['activation', false],
      ['add_time', false],
      ['add_time', false],
      ['unlock', true],
    ]);

    const second = await seedCustomerWithDevice(t, org.id);
    for (let i = 0; i < 4; i++) await byDays(user, second.item.serial_number, 2); // counts 2, 4, 6, 8
    await t.http.post('/payg/update-token-count').set(user.auth).send({ serial_number: second.item.serial_number, new_token_count: 21 }).expect(200);
    expect((await logsOf(org.id, second.item.id)).map((l) => [l.token_count, l.is_valid])).toEqual([
      [2, false],
      [4, false],
      [6, true],
      [8, true],
    ]);
    // The next token continues from the new count, and the record still matches the device.
    expect(ZTokenReplySchema.parse((await byDays(user, second.item.serial_number, 2)).body).token_count).toBe(22);
    expect((await logsOf(org.id, second.item.id)).map((l) => [l.token_count, l.is_valid])).toEqual([
      [2, false],
      [4, false],
      [6, false],
      [8, true],
      [22, true],
    ]);
  });

  it("expires only the caller's device's tokens", async () => {
    const a = await seedTenant(t, { role: 'owner' });
    const b = await seedTenant(t, { role: 'owner' });
    const ofA = await seedCustomerWithDevice(t, a.org.id);
    const ofB = await seedCustomerWithDevice(t, b.org.id, { item: { serial_number: ofA.item.serial_number } });
    for (let i = 0; i < 3; i++) await byDays(b.user, ofB.item.serial_number, 1);
    await t.http.post('/payg/generate-token').set(a.user.auth).send({ serial_number: ofA.item.serial_number, type: 'set_time', value: 3 }).expect(200);
    expect((await logsOf(b.org.id, ofB.item.id)).every((l) => l.is_valid)).toBe(true);
    await t.http.post('/payg/update-token-count').set(a.user.auth).send({ serial_number: ofA.item.serial_number, new_token_count: 99 }).expect(200);
    expect((await logsOf(b.org.id, ofB.item.id)).every((l) => l.is_valid)).toBe(true);
  });

  it('migration 0024 marks the tokens issued before it and moves the kept totals with them', async () => {
    const { user, org } = await seedTenant(t, { role: 'owner' });
    const { item } = await seedCustomerWithDevice(t, org.id);
    // A history written before the rule: every token valid.
    const created_at = new Date(Date.now() - 3 * 86_400_000);
    for (let i = 0; i < 20; i++) await seedTokenLog(t, org.id, item, { token_type: i === 5 ? 'set_time' : 'add_time', days: 1, created_at });
    const before = ZUsageMetricsSchema.parse((await t.http.get('/payg/metrics/usage').set(user.auth).expect(200)).body);
    expect(before).toMatchObject({ tokens_total: 20, tokens_active: 20, tokens_expired: 0 });

    const sql = readFileSync(join(REPO_ROOT, 'prisma/migrations/0024_token_expiry/migration.sql'), 'utf8');
    // This file's own database: the statement is run again as it ran at start, over every organization's tokens.
    const c = new pg.Client({ connectionString: t.databaseUrl });
    await c.connect();
    try {
      await c.query(`BEGIN; ${sql}; COMMIT;`);
    } finally {
      await c.end();
    }
    const logs = await logsOf(org.id, item.id);
    const top = Math.max(...logs.map((l) => l.token_count));
    const setTimeCount = logs.find((l) => l.token_type === 'set_time')!.token_count;
    expect(logs.filter((l) => l.is_valid).map((l) => l.token_count)).toEqual(
      logs.map((l) => l.token_count).filter((c) => c > setTimeCount && c > top - 16),
    );
    const expired = logs.filter((l) => !l.is_valid).length;
    const after = ZUsageMetricsSchema.parse((await t.http.get('/payg/metrics/usage').set(user.auth).expect(200)).body);
    expect(after).toMatchObject({ tokens_total: 20, tokens_active: 20 - expired, tokens_expired: expired });
    const [stats] = await t.db.query<{ valid: number; invalid: number }>(Prisma.sql`
      SELECT coalesce(sum(n) FILTER (WHERE is_valid), 0)::int AS valid, coalesce(sum(n) FILTER (WHERE NOT is_valid), 0)::int AS invalid
      FROM token_stats WHERE organization_id = ${org.id}`);
    expect(stats).toEqual({ valid: 20 - expired, invalid: expired });
  });
});
