import { z } from 'zod';

/** One problem with one row of an uploaded CSV file. */
export const ZCsvRowErrorSchema = z.object({
  /** 1-based data row number (the header is not counted). */
  row: z.number().int(),
  /** The column at fault; empty when the row itself could not be read. */
  field: z.string(),
  message: z.string(),
});
export type CsvRowError = z.infer<typeof ZCsvRowErrorSchema>;

/**
 * Reply of POST /upload-csv (customers) and POST /items/add/bulk (devices).
 * Every data row is either imported or skipped: skipped = invalid rows (each
 * reported in `errors`) + rows whose key (id_number / serial_number) already
 * exists in the organization or earlier in the same file (`duplicates`), so
 * uploading the same file twice imports nothing the second time.
 */
export const ZCsvImportReportSchema = z.object({
  job_id: z.string(),
  rows: z.number().int(),
  imported: z.number().int(),
  skipped: z.number().int(),
  duplicates: z.number().int(),
  /** At most 1,000 listed; `more_errors` says how many more there were. */
  errors: z.array(ZCsvRowErrorSchema),
  more_errors: z.number().int(),
  duration_ms: z.number().int(),
});
export type CsvImportReport = z.infer<typeof ZCsvImportReportSchema>;
