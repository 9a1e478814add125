import { HttpException, Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { CsvImportReport } from '@kidogo/contracts';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { DatabaseService } from '../database/database.service.js';
import { AuditService } from '../audit/audit.service.js';
import type { AuthUser } from '../common/tenancy.js';
import type { CsvImportOutcome } from './csv-import.js';

/** No import runs this long (100,000 rows take seconds): a job still running after it was cut off by a crash or a restart. */
export const INTERRUPTED_AFTER_MS = 60 * 60_000;
const SWEEP_EVERY_MS = 10 * 60_000;

/**
 * Keeps a record of each CSV import (ImportJob: who, which file, the counts
 * and the reported rows) and an audit entry. A file refused outright (empty,
 * not CSV, missing columns) leaves no job: nothing was imported.
 *
 * An import that dies with its process keeps the batches it committed (each
 * batch is one statement); uploading the file again skips the rows already
 * there. Its job, left in status running, is marked interrupted by a sweep
 * at start and every ten minutes, once it is older than any import can be.
 */
@Injectable()
export class ImportJobs implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Imports');
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly database: DatabaseService,
    private readonly audit: AuditService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Marks jobs left running by a dead process; returns how many. Cross-organization by design. */
  async markInterrupted(now = Date.now()): Promise<number> {
    const { count } = await this.database.platform.importJob.updateMany({
      where: { status: 'running', created_at: { lt: new Date(now - INTERRUPTED_AFTER_MS) } },
      data: { status: 'interrupted', finished_at: new Date(now) },
    });
    if (count) this.logger.warn(`${count} import(s) were interrupted by a restart; uploading the file again imports the rest`);
    return count;
  }

  onApplicationBootstrap(): void {
    // The background-worker switch (tests drive the workers by hand).
    if (!this.config.outbox.enabled) return;
    const run = () => void this.markInterrupted().catch((e) => this.logger.error(`import sweep failed: ${(e as Error).message}`));
    run();
    this.timer = setInterval(run, SWEEP_EVERY_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
  }

  async run(
    job: { orgId: string; kind: 'customers' | 'items' | 'accounts'; filename: string | undefined; actor: AuthUser },
    work: () => Promise<CsvImportOutcome>,
  ): Promise<CsvImportReport> {
    const filename = (job.filename ?? '').slice(0, 255) || null;
    const row = await this.database.db.importJob.create({
      data: { organization_id: job.orgId, kind: job.kind, filename, created_by: job.actor.username },
      select: { id: true },
    });
    const where = { id: row.id, organization_id: job.orgId };
    let outcome: CsvImportOutcome;
    try {
      outcome = await work();
    } catch (e) {
      if (e instanceof HttpException && e.getStatus() < 500) {
        await this.database.db.importJob.delete({ where });
      } else {
        await this.database.db.importJob.update({
          where,
          data: { status: 'failed', finished_at: new Date(), errors: [{ row: 0, field: '', message: (e as Error).message }] },
        });
      }
      throw e;
    }
    await this.database.db.importJob.update({
      where,
      data: {
        status: 'completed',
        imported: outcome.imported,
        skipped: outcome.skipped,
        errors: outcome.errors,
        finished_at: new Date(),
      },
    });
    const what = { customers: 'customers', items: 'devices', accounts: 'accounts brought over' }[job.kind];
    await this.audit.record({
      organizationId: job.orgId,
      actor: job.actor,
      action: `${job.kind}.imported`,
      entityType: 'import_job',
      entityId: row.id,
      description: `Imported ${outcome.imported} ${what} from ${filename ?? 'a CSV file'} (${outcome.skipped} skipped: ${outcome.duplicates} already there, ${outcome.skipped - outcome.duplicates} invalid)`,
      metadata: { rows: outcome.rows, imported: outcome.imported, skipped: outcome.skipped, duplicates: outcome.duplicates },
    });
    return { job_id: row.id, ...outcome };
  }
}
