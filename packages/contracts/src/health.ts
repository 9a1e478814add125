import { z } from 'zod';

export const ZHealthSchema = z.object({
  status: z.enum(['healthy', 'unhealthy']),
  database: z.enum(['connected', 'disconnected']),
  external_services: z.enum(['operational', 'degraded', 'not_configured']),
});
export type Health = z.infer<typeof ZHealthSchema>;

export const ZHealthDetailedSchema = ZHealthSchema.extend({
  version: z.string(),
  uptime_seconds: z.number(),
  migrations: z.object({ applied: z.number().int(), pending: z.number().int(), latest: z.string().nullable() }),
  outbox: z.object({ queued: z.number().int(), failed: z.number().int() }),
  timestamp: z.string(),
});
export type HealthDetailed = z.infer<typeof ZHealthDetailedSchema>;

export const ZProbeSchema = z.object({ status: z.enum(['ready', 'not_ready', 'alive']), detail: z.string().optional() });
export type Probe = z.infer<typeof ZProbeSchema>;
