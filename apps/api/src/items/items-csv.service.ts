import { Injectable } from '@nestjs/common';
import { ZItemInputSchema, type CsvImportReport } from '@kidogo/contracts';
import type { AuthUser } from '../common/tenancy.js';
import { importCsv } from '../catalog/csv-import.js';
import { ImportJobs } from '../catalog/import-jobs.js';
import type { UploadedCsv } from '../catalog/csv-upload.js';
import { ITEM_IMPORT_COLUMNS } from './items.mapper.js';
import { ItemsService, unknownLocation } from './items.service.js';

export const ITEM_UPLOAD_FIELD = 'file';

@Injectable()
export class ItemsCsvService {
  constructor(
    private readonly items: ItemsService,
    private readonly jobs: ImportJobs,
  ) {}

  /**
   * The device maker's CSV: rows validated like POST /items/add, 1,000 per
   * insert; serials already in the organization (in any spelling) or
   * earlier in the file are skipped, so a second upload imports nothing.
   */
  async import(orgId: string, file: UploadedCsv, actor: AuthUser): Promise<CsvImportReport> {
    const seen = new Set<string>();
    return this.jobs.run({ orgId, kind: 'items', filename: file.originalname, actor }, async () => {
      // A row naming a stock location the organization does not have is that row's error.
      const locations = await this.items.locationIds(orgId);
      const schema = ZItemInputSchema.superRefine((row, ctx) => {
        if (row.location && !locations.has(row.location.toLowerCase())) {
          ctx.addIssue({ code: 'custom', path: ['location'], message: unknownLocation(row.location) });
        }
      });
      return importCsv(file.path, {
        field: ITEM_UPLOAD_FIELD,
        required: ['serial_number', 'product_name'],
        columns: ITEM_IMPORT_COLUMNS,
        schema,
        insertBatch: (rows) => this.items.insertBatch(orgId, rows, seen, locations),
      });
    });
  }
}
