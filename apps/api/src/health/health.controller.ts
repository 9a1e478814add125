import { Controller, Get, Inject, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ZHealthDetailedSchema, ZHealthSchema, ZProbeSchema, type Health, type HealthDetailed } from '@kidogo/contracts';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { DatabaseService } from '../database/database.service.js';
import { migrationState } from '../database/migrator.js';
import { Endpoint } from '../common/validation.js';
import { Public } from '../common/tenancy.js';

const started = Date.now();

@ApiTags('health')
@Public()
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

  private async externalServices(): Promise<Health['external_services']> {
    const configured = this.config.sms.provider !== 'none' || (await this.database.platform.paymentProvider.count({ where: { is_active: true } })) > 0;
    if (!configured) return 'not_configured';
    const since = new Date(Date.now() - 3_600_000);
    const failed = await this.database.platform.message.count({
      where: { delivery_status: 'failed', next_attempt_at: { gte: since } },
    });
    return failed > 0 ? 'degraded' : 'operational';
  }

  @Get('health')
  @Endpoint({ summary: 'Service health for the dashboard', response: ZHealthSchema })
  async health(): Promise<Health> {
    const up = await this.dbUp();
    return {
      status: up ? 'healthy' : 'unhealthy',
      database: up ? 'connected' : 'disconnected',
      external_services: up ? await this.externalServices() : 'degraded',
    };
  }

  @Get('health/detailed')
  @Endpoint({ summary: 'Health with version, uptime, migration and outbox state', response: ZHealthDetailedSchema })
  async detailed(): Promise<HealthDetailed> {
    const base = await this.health();
    const up = base.database === 'connected';
    const state = up
      ? await migrationState((sql) => this.database.platform.$queryRawUnsafe<{ name: string }[]>(sql))
      : { applied: [], pending: [] };
    const [queued, failed] = up
      ? await Promise.all([
          this.database.platform.message.count({ where: { delivery_status: 'queued' } }),
          this.database.platform.message.count({ where: { delivery_status: 'failed' } }),
        ])
      : [0, 0];
    return {
      ...base,
      version: this.config.version,
      uptime_seconds: Math.round((Date.now() - started) / 1000),
      migrations: { applied: state.applied.length, pending: state.pending.length, latest: state.applied.at(-1) ?? null },
      outbox: { queued, failed },
      timestamp: new Date().toISOString(),
    };
  }

  @Get('ready')
  @Endpoint({ summary: 'Readiness: 200 once the database is reachable and migrated, else 503', response: ZProbeSchema, errors: { 503: 'Not ready' } })
  async ready(@Res({ passthrough: true }) res: Response) {
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

  @Get('live')
  @Endpoint({ summary: 'Liveness: the process answers', response: ZProbeSchema })
  live() {
    return { status: 'alive' };
  }
}
