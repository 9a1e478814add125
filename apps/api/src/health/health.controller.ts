import { Controller, Get, Inject, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { HttpReply } from '../common/http.js';
import { ZHealthDetailedSchema, ZHealthSchema, ZProbeSchema, type Health, type HealthDetailed } from '@kidogo/contracts';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { Prisma } from '../generated/prisma/client.js';
import { DatabaseService } from '../database/database.service.js';
import { migrationState } from '../database/migrator.js';
import { Endpoint } from '../common/validation.js';
import { Public, Roles } from '../common/tenancy.js';

const started = Date.now();

interface Figures {
  provider: boolean;
  failed_recently: number;
  queued: number;
  failed: number;
}

@ApiTags('health')
@Controller()
export class HealthController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly database: DatabaseService,
  ) {}

  private async dbUp(): Promise<boolean> {
    try {
      await this.database.platform.$queryRaw`SELECT 1`;
      return true;
    } catch {
      return false;
    }
  }

  /**
   * Everything the health replies say about the database and the outbox, in
   * one statement (null when the database cannot be reached): these were
   * four to six round trips one after another, and on a busy installation
   * (the benchmark's dashboard scenario, with the kept figures being
   * recomputed) each one queued behind the others' work.
   */
  private async figures(detailed: boolean): Promise<Figures | null> {
    const outbox = detailed
      ? Prisma.sql`, (SELECT count(*) FROM messages WHERE delivery_status = 'queued')::int AS queued,
                     (SELECT count(*) FROM messages WHERE delivery_status = 'failed')::int AS failed`
      : Prisma.sql`, 0 AS queued, 0 AS failed`;
    try {
      const [row] = await this.database.platform.$queryRaw<Figures[]>`
        SELECT EXISTS (SELECT 1 FROM payment_providers WHERE is_active) AS provider,
               (SELECT count(*) FROM messages
                WHERE delivery_status = 'failed' AND next_attempt_at >= now() - interval '1 hour')::int AS failed_recently
               ${outbox}`;
      return row!;
    } catch {
      return null;
    }
  }

  private summary(f: Figures | null): Health {
    if (!f) return { status: 'unhealthy', database: 'disconnected', external_services: 'degraded' };
    const configured = this.config.sms.provider !== 'none' || f.provider;
    return {
      status: 'healthy',
      database: 'connected',
      external_services: !configured ? 'not_configured' : f.failed_recently > 0 ? 'degraded' : 'operational',
    };
  }

  @Public()
  @Get('health')
  @Endpoint({ summary: 'Service health for the dashboard', response: ZHealthSchema })
  async health(): Promise<Health> {
    return this.summary(await this.figures(false));
  }

  /**
   * Platform-wide figures (version, migrations, every organization's
   * outbox), so only for the platform's super admin: a bearer token, like
   * every call but sign-in and the probes.
   */
  @Roles('super_admin')
  @Get('health/detailed')
  @Endpoint({ summary: 'Health with version, uptime, migration and outbox state (super admin)', response: ZHealthDetailedSchema })
  async detailed(): Promise<HealthDetailed> {
    const [f, state] = await Promise.all([
      this.figures(true),
      migrationState((sql) => this.database.platform.$queryRawUnsafe<{ name: string }[]>(sql)),
    ]);
    return {
      ...this.summary(f),
      version: this.config.version,
      uptime_seconds: Math.round((Date.now() - started) / 1000),
      migrations: f
        ? { applied: state.applied.length, pending: state.pending.length, latest: state.applied.at(-1) ?? null }
        : { applied: 0, pending: 0, latest: null },
      outbox: { queued: f?.queued ?? 0, failed: f?.failed ?? 0 },
      timestamp: new Date().toISOString(),
    };
  }

  @Public()
  @Get('ready')
  @Endpoint({ summary: 'Readiness: 200 once the database is reachable and migrated, else 503', response: ZProbeSchema, errors: { 503: 'Not ready' } })
  async ready(@Res({ passthrough: true }) res: HttpReply) {
    if (!(await this.dbUp())) {
      res.status(503);
      return { status: 'not_ready', detail: 'database unreachable' };
    }
    const state = await migrationState((sql) => this.database.platform.$queryRawUnsafe<{ name: string }[]>(sql));
    if (state.pending.length) {
      res.status(503);
      return { status: 'not_ready', detail: `${state.pending.length} migration(s) pending` };
    }
    return { status: 'ready' };
  }

  @Public()
  @Get('live')
  @Endpoint({ summary: 'Liveness: the process answers', response: ZProbeSchema })
  live() {
    return { status: 'alive' };
  }
}
