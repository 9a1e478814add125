import { HttpException, Injectable } from '@nestjs/common';
import type { CsvImportReport } from '@kidogo/contracts';
import { DatabaseService } from '../database/database.service.js';
import { AuditService } from '../audit/audit.service.js';
import type { AuthUser } from '../common/tenancy.js';
import type { CsvImportOutcome } from './csv-import.js';

/**
 * Keeps a record of each CSV import (ImportJob: who, which file, the counts
 * and the reported rows) and an audit entry. A file refused outright (empty,
 * not CSV, missing columns) leaves no job: nothing was imported.
 */
@Injectable()
export class ImportJobs {
  constructor(
    private readonly database: DatabaseService,
    private readonly audit: AuditService,
  ) {}

  async run(
    job: { orgId: string; kind: 'customers' | 'items'; filename: string | undefined; actor: AuthUser },
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
    const what = job.kind === 'customers' ? 'customers' : 'devices';
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
