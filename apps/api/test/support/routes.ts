import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyInstance } from 'fastify';

export interface RouteEntry {
  method: string;
  /** OpenAPI style: /payg/customers/{id} */
  path: string;
}

const tables = new WeakMap<NestFastifyApplication, RouteEntry[]>();

/** Keeps every route Fastify is given from now on (call before the application registers its controllers). */
export function recordRoutes(app: NestFastifyApplication): void {
  const table: RouteEntry[] = [];
  tables.set(app, table);
  (app.getHttpAdapter().getInstance() as unknown as FastifyInstance).addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      // Fastify adds a HEAD route for every GET on its own; the API has no HEAD or OPTIONS routes of its own.
      if (method === 'HEAD' || method === 'OPTIONS') continue;
      table.push({ method, path: route.url.replace(/:(\w+)/g, '{$1}') });
    }
  });
}

/** The application's own route table, as the HTTP framework was given it when Nest registered every controller. */
export function registeredRoutes(app: NestFastifyApplication): RouteEntry[] {
  const table = tables.get(app);
  if (!table) throw new Error('recordRoutes(app) was not called before the routes were registered');
  return table.filter((r) => r.path.startsWith('/payg/') && !r.path.startsWith('/payg/docs'));
}

/** Routes as the OpenAPI document lists them. */
export function documentedRoutes(doc: { paths: Record<string, Record<string, unknown>> }): RouteEntry[] {
  const out: RouteEntry[] = [];
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const method of Object.keys(ops)) out.push({ method: method.toUpperCase(), path });
  }
  return out;
}

export const routeKey = (r: RouteEntry) => `${r.method} ${r.path}`;
