import { Module } from '@nestjs/common';
import { ImportJobs } from './import-jobs.js';

/** Pieces the customer, device and template modules share: CSV import bookkeeping. */
@Module({ providers: [ImportJobs], exports: [ImportJobs] })
export class CatalogModule {}
