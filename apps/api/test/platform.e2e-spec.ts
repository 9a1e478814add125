import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Server } from 'node:http';
import { ZHealthDetailedSchema, ZHealthSchema } from '@kidogo/contracts';
import SwaggerParser from '@apidevtools/swagger-parser';
import { createTestApp, type TestApp } from './support/test-app.js';
import { ReplyChecker } from './support/openapi-check.js';
import { seedMessage, seedTenant, type SeededUser } from './support/factories.js';

describe('health, errors and the API document', () => {
  let t: TestApp;
  let superAdmin: SeededUser;
  beforeAll(async () => {
    t = await createTestApp();
    superAdmin = (await seedTenant(t, { role: 'super_admin' })).user;
  });
  afterAll(() => t.close());

  it('reports health and the probes without a token, and the detailed health only to the super admin', async () => {
    const h = await t.http.get('/payg/health').expect(200);
    expect(ZHealthSchema.parse(h.body)).toEqual({ status: 'healthy', database: 'connected', external_services: 'not_configured' });
    await t.http.get('/payg/health/detailed').expect(401);
    const { user: owner } = await seedTenant(t, { role: 'owner' });
    await t.http.get('/payg/health/detailed').set(owner.auth).expect(403);
    const d = await t.http.get('/payg/health/detailed').set(superAdmin.auth).expect(200);
    const detailed = ZHealthDetailedSchema.parse(d.body);
    expect(detailed.migrations.pending).toBe(0);
    expect(detailed.migrations.applied).toBeGreaterThan(0);
    await t.http.get('/payg/ready').expect(200, { status: 'ready' });
    await t.http.get('/payg/live').expect(200, { status: 'alive' });
  });

  it('reports the outbox and the gateways: operational, or degraded after a failed delivery in the last hour', async () => {
    const { org } = await seedTenant(t);
    const before = ZHealthDetailedSchema.parse((await t.http.get('/payg/health/detailed').set(superAdmin.auth).expect(200)).body).outbox;
    const queued = await seedMessage(t, org.id);
    const failed = await seedMessage(t, org.id);
    await t.db.db.message.update({ where: { organization_id_id: { organization_id: org.id, id: queued.id } }, data: { delivery_status: 'queued' } });
    await t.db.db.message.update({
      where: { organization_id_id: { organization_id: org.id, id: failed.id } },
      data: { delivery_status: 'failed', next_attempt_at: new Date(Date.now() - 60_000) },
    });
    const provider = await t.db.db.paymentProvider.create({ data: { organization_id: org.id, provider: 'mpesa', config_enc: 'x', is_active: true } });
    const detailed = ZHealthDetailedSchema.parse((await t.http.get('/payg/health/detailed').set(superAdmin.auth).expect(200)).body);
    expect(detailed.outbox).toEqual({ queued: before.queued + 1, failed: before.failed + 1 });
    expect(detailed.external_services).toBe('degraded');
    expect(ZHealthSchema.parse((await t.http.get('/payg/health').expect(200)).body).external_services).toBe('degraded');
    // A failure more than an hour old no longer counts against the gateways.
    await t.db.db.message.update({
      where: { organization_id_id: { organization_id: org.id, id: failed.id } },
      data: { next_attempt_at: new Date(Date.now() - 2 * 3_600_000) },
    });
    expect(ZHealthSchema.parse((await t.http.get('/payg/health').expect(200)).body).external_services).toBe('operational');
    // An inactive gateway is no gateway.
    await t.db.db.paymentProvider.update({ where: { id: provider.id, organization_id: org.id }, data: { is_active: false } });
    expect(ZHealthSchema.parse((await t.http.get('/payg/health').expect(200)).body).external_services).toBe('not_configured');
  });

  it('answers unknown routes with a JSON 404', async () => {
    const { user } = await seedTenant(t);
    const res = await t.http.get('/payg/does-not-exist').set(user.auth).expect(404);
    expect(res.body.message).toMatch(/Cannot GET/);
    expect(res.body.detail).toBeDefined();
  });

  it('answers a path that is not valid percent-encoding with a 400 naming the path, and ignores a trailing slash', async () => {
    const { user } = await seedTenant(t);
    const res = await t.http.get('/payg/devices/%E0%A4%A/activity').set(user.auth).expect(400);
    expect(res.body).toEqual({ detail: 'path: a parameter is not valid percent-encoded UTF-8', message: 'path: a parameter is not valid percent-encoded UTF-8' });
    const slash = await t.http.get('/payg/registered-customers/').set(user.auth).expect(200);
    expect(slash.body.pagination).toMatchObject({ total: 0, offset: 0 });
  });

  it('cuts off a client that takes more than 5 minutes to send its request, or a minute for its headers', () => {
    const server = t.app.getHttpServer() as Server;
    expect(server.requestTimeout).toBe(300_000);
    expect(server.headersTimeout).toBeLessThanOrEqual(60_000);
    expect(server.headersTimeout).toBeGreaterThan(0);
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
    expect(doc.body.paths['/payg/health'].get.security).toBeUndefined();
    expect(doc.body.paths['/payg/health/detailed'].get.security).toEqual([{ bearer: [] }]);
    const ui = await t.http.get('/payg/docs/').expect(200);
    expect(ui.text).toContain('swagger');
  });

  it('publishes a document that standard OpenAPI tools accept, with who may call each operation and how it can fail', async () => {
    const doc = (await t.http.get('/payg/docs-json').expect(200)).body;
    // Validates against the OpenAPI 3.0 schema and resolves every $ref (a copy: the parser dereferences in place).
    await expect(SwaggerParser.validate(structuredClone(doc))).resolves.toBeDefined();
    const BILLS = ['/payg/invoices', '/payg/invoices/stats', '/payg/invoice/{id}', '/payg/download-invoice/{id}', '/payg/submit-payment'];
    // The M-Pesa Express result is Safaricom's call, authenticated by its secret address alone; a forgotten password's
    // routes are for who cannot sign in.
    const PUBLIC = [
      '/payg/authenticate',
      '/payg/authenticate/2fa',
      '/payg/refresh',
      '/payg/logout',
      '/payg/health',
      '/payg/ready',
      '/payg/live',
      '/payg/external/mpesa-express/{token}',
      '/payg/external/mtn-momo/{token}',
      '/payg/external/airtel-money/callback',
      '/payg/external/ussd/{key}',
      '/payg/auth/password-reset',
      '/payg/auth/password-reset/confirm',
      '/payg/portal/{token}',
      '/payg/portal/{token}/statement',
      '/payg/portal/{token}/payments',
      '/payg/portal/{token}/payments/{request_id}',
    ];
    const problems: string[] = [];
    let operations = 0;
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, Record<string, unknown>>>)) {
      for (const [method, op] of Object.entries(item)) {
        operations++;
        const name = `${method.toUpperCase()} ${path}`;
        const responses = op.responses as Record<string, { content?: Record<string, unknown> }>;
        const security = JSON.stringify(op.security ?? null);
        if (PUBLIC.includes(path)) {
          if (op.security) problems.push(`${name}: public, but documented with security ${security}`);
        } else {
          if (security !== JSON.stringify([{ bearer: [] }]) && security !== JSON.stringify([{ 'api-key': [] }])) problems.push(`${name}: security ${security}`);
          // An organization's bills stay open to it when it is blocked: no 403 for them.
          if (!responses['401'] || (!responses['403'] && !BILLS.includes(path))) problems.push(`${name}: 401 or 403 not documented`);
        }
        if ((op.requestBody || (op.parameters as unknown[] | undefined)?.length) && !responses['400']) problems.push(`${name}: takes input, 400 not documented`);
        for (const [status, r] of Object.entries(responses)) {
          if (Number(status) >= 400 && !r.content?.['application/json']) problems.push(`${name}: ${status} has no body schema`);
        }
        for (const [k, v] of Object.entries(op)) if (k.startsWith('x-kidogo')) problems.push(`${name}: internal mark ${k}=${JSON.stringify(v)} left in`);
      }
    }
    expect(problems).toEqual([]);
    expect(operations).toBeGreaterThan(100);
    // Defaults a client may leave out are optional, with the default shown.
    const list = doc.paths['/payg/registered-customers'].get.parameters as { name: string; required: boolean; schema: { default?: unknown } }[];
    expect(list.find((p) => p.name === 'search_field')).toMatchObject({ required: false, schema: { default: 'customer_name' } });
    // Files are documented as files.
    expect(Object.keys(doc.paths['/payg/export-customers-csv'].get.responses['200'].content)).toEqual(['text/csv']);
    expect(Object.keys(doc.paths['/payg/reports/page'].post.responses['200'].content).sort()).toEqual(['application/json', 'application/pdf', 'text/csv']);
  });

  it('has a reply checker (used by the role matrix on every reply) that refuses what the document does not describe', async () => {
    const { user } = await seedTenant(t);
    const checker = new ReplyChecker((await t.http.get('/payg/docs-json').expect(200)).body);
    const real = await t.http.get('/payg/registered-customers').set(user.auth).expect(200);
    const route = ['GET', '/payg/registered-customers'] as const;
    expect(checker.check(...route, 200, String(real.headers['content-type']), real.text)).toBeNull();
    expect(checker.check(...route, 200, 'application/json', JSON.stringify({ ...real.body, data: 'x' }))).toMatch(/does not match.*\/data must be array/);
    expect(checker.check(...route, 200, 'application/json', JSON.stringify({ data: [{ customer_id: 1, gender: 'robot' }] }))).toMatch(/does not match/);
    expect(checker.check(...route, 418, 'application/json', '{}')).toMatch(/status 418 is not documented/);
    expect(checker.check(...route, 200, 'text/csv', 'a,b')).toMatch(/text\/csv is not documented/);
    expect(checker.check(...route, 401, 'application/json', '{"detail":"Not authenticated"}')).toMatch(/message/);
  });

  it('sets security headers', async () => {
    const res = await t.http.get('/payg/live').expect(200);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(res.headers['x-powered-by']).toBeUndefined();
  });
});
