import type { NestExpressApplication } from '@nestjs/platform-express';

export interface RouteEntry {
  method: string;
  /** OpenAPI style: /payg/customers/{id} */
  path: string;
}

/** The application's own route table, read from the HTTP framework after Nest registered every controller. */
export function registeredRoutes(app: NestExpressApplication): RouteEntry[] {
  const express = app.getHttpAdapter().getInstance() as { router?: { stack: unknown[] }; _router?: { stack: unknown[] } };
  const stack = (express.router ?? express._router)?.stack ?? [];
  const out: RouteEntry[] = [];
  for (const layer of stack as { route?: { path: string; methods: Record<string, boolean> } }[]) {
    if (!layer.route) continue;
    for (const [method, on] of Object.entries(layer.route.methods)) {
      if (!on || method === '_all') continue;
      out.push({ method: method.toUpperCase(), path: layer.route.path.replace(/:(\w+)/g, '{$1}') });
    }
  }
  return out.filter((r) => r.path.startsWith('/payg/') && !r.path.startsWith('/payg/docs'));
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
