import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ZHealthDetailedSchema, ZHealthSchema } from '@kidogo/contracts';
import { createTestApp, type TestApp } from './support/test-app.js';
import { seedTenant } from './support/factories.js';

describe('health, errors and the API document', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('reports health without a token', async () => {
    const h = await t.http.get('/payg/health').expect(200);
    expect(ZHealthSchema.parse(h.body)).toEqual({ status: 'healthy', database: 'connected', external_services: 'not_configured' });
    const d = await t.http.get('/payg/health/detailed').expect(200);
    const detailed = ZHealthDetailedSchema.parse(d.body);
    expect(detailed.migrations.pending).toBe(0);
    expect(detailed.migrations.applied).toBeGreaterThan(0);
    await t.http.get('/payg/ready').expect(200, { status: 'ready' });
    await t.http.get('/payg/live').expect(200, { status: 'alive' });
  });

  it('answers unknown routes with a JSON 404', async () => {
    const { user } = await seedTenant(t);
    const res = await t.http.get('/payg/does-not-exist').set(user.auth).expect(404);
    expect(res.body.message).toMatch(/Cannot GET/);
    expect(res.body.detail).toBeDefined();
  });

  it('answers malformed JSON with a 400 naming the body', async () => {
    const res = await t.http
      .post('/payg/authenticate')
      .set('Content-Type', 'application/json')
      .send('{"username": "x",')
      .expect(400);
    expect(res.body.detail).toBe('body: malformed JSON');
  });

  it('refuses bodies over the size limit with 413', async () => {
    const res = await t.http
      .post('/payg/authenticate')
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ username: 'x'.repeat(2_000_000), password: 'y' }))
      .expect(413);
    expect(res.body.message).toMatch(/too large/);
  });

  it('serves the OpenAPI document and Swagger UI', async () => {
    const doc = await t.http.get('/payg/docs-json').expect(200);
    expect(doc.body.openapi).toMatch(/^3\./);
    expect(doc.body.paths['/payg/authenticate'].post).toBeDefined();
    expect(doc.body.paths['/payg/health'].get).toBeDefined();
    const ui = await t.http.get('/payg/docs/').expect(200);
    expect(ui.text).toContain('swagger');
  });

  it('sets security headers', async () => {
    const res = await t.http.get('/payg/live').expect(200);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['x-powered-by']).toBeUndefined();
  });
});
