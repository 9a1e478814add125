import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestApp, type TestApp } from './support/test-app.js';
import { seedTenant } from './support/factories.js';

// PostgreSQL may end the API's idle connections at any time (a restart, a
// failover, an administrator): the API must carry on with new ones, not die.

describe('database connections', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('survives PostgreSQL ending its idle connections, and answers the next request on new ones', async () => {
    const { user } = await seedTenant(t);
    // Several connections open and idle in the pool.
    await Promise.all(Array.from({ length: 6 }, () => t.http.get('/payg/registered-customers').set(user.auth).expect(200)));
    const { rows } = await t.db.pool.query(
      `SELECT count(pg_terminate_backend(pid))::int AS ended FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`,
    );
    expect(rows[0].ended).toBeGreaterThan(0);
    // The pool hears of each as it closes; give it a moment, then the API goes on.
    await new Promise((r) => setTimeout(r, 300));
    for (let i = 0; i < 3; i += 1) await t.http.get('/payg/registered-customers').set(user.auth).expect(200);
    await t.http.get('/payg/me').set(user.auth).expect(200);
  });
});
