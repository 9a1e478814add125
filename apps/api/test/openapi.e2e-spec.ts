import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestApp, type TestApp } from './support/test-app.js';
import { documentedRoutes, registeredRoutes, routeKey } from './support/routes.js';

describe('the OpenAPI document', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('lists exactly the routes the application serves', async () => {
    const doc = (await t.http.get('/payg/docs-json').expect(200)).body;
    const served = registeredRoutes(t.app).map(routeKey).sort();
    const documented = documentedRoutes(doc).map(routeKey).sort();
    expect(served.length).toBeGreaterThan(5);
    expect(documented).toEqual(served);
  });

  it('describes every operation with a summary and a success reply, and every body with a schema', async () => {
    const doc = (await t.http.get('/payg/docs-json').expect(200)).body as {
      paths: Record<string, Record<string, { summary?: string; responses?: Record<string, unknown>; requestBody?: { content?: Record<string, { schema?: unknown }> } }>>;
    };
    const missing: string[] = [];
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const key = `${method.toUpperCase()} ${path}`;
        if (!op.summary) missing.push(`${key}: summary`);
        if (!Object.keys(op.responses ?? {}).some((s) => s.startsWith('2'))) missing.push(`${key}: success reply`);
        if (op.requestBody && !Object.values(op.requestBody.content ?? {}).every((c) => c.schema)) missing.push(`${key}: body schema`);
      }
    }
    expect(missing).toEqual([]);
  });
});
