import { z } from 'zod';
import { zQueryInt } from './common.js';
import { zQueryDate } from './payments.js';

/**
 * The kinds of entry on the Activity Log page, each the action prefixes
 * (the part before the dot) that belong to it. A new action falls into its
 * kind by its prefix.
 */
export const AUDIT_CATEGORIES = {
  sign_ins: ['auth'],
  team: ['user', 'api_token'],
  payments: ['payment', 'payments', 'payment_request', 'cash', 'commission'],
  tokens: ['token'],
  devices: ['item', 'items', 'accounts', 'oem_config', 'oem_credentials', 'ticket', 'stock', 'stock_location'],
  customers: ['customer', 'customers', 'sms_campaign'],
  plans: ['template'],
  collections: ['collection', 'collections'],
  settings: [
    'api_key',
    'sms_provider',
    'mpesa_express',
    'mtn_momo',
    'airtel_money',
    'ussd',
    'reminders',
    'commissions',
    'follow_on',
    'warranties',
    'agreement',
    'config',
    'invoice_settings',
    'organization',
    'webhook',
    'audit_log',
  ],
  invoices: ['invoice'],
} as const satisfies Record<string, readonly string[]>;
export type AuditCategory = keyof typeof AUDIT_CATEGORIES;
export const ZAuditCategorySchema = z.enum(Object.keys(AUDIT_CATEGORIES) as [AuditCategory, ...AuditCategory[]], {
  error: `must be one of ${Object.keys(AUDIT_CATEGORIES).join(', ')}`,
});

/** The kind an action belongs to (null for one of no kind, such as a platform action). */
export function auditCategoryOf(action: string): AuditCategory | null {
  const prefix = action.split('.')[0];
  for (const [category, prefixes] of Object.entries(AUDIT_CATEGORIES) as [AuditCategory, readonly string[]][]) {
    if (prefixes.includes(prefix ?? '')) return category;
  }
  return null;
}

/** Where a page ends: the last entry's time and id, as the reply's next_cursor gives it. */
const CURSOR = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,6})?Z)_(\d{1,10})$/;
export function parseAuditCursor(cursor: string): { at: string; id: number } | null {
  const m = CURSOR.exec(cursor);
  if (!m || Number.isNaN(Date.parse(m[1]!)) || Number(m[2]) > 2_147_483_647) return null;
  return { at: m[1]!, id: Number(m[2]) };
}

/** GET /audit-log: the organization's audit entries, newest first, a page at a time (next_cursor). */
export const ZAuditLogQuerySchema = z.object({
  limit: zQueryInt({ default: 25, min: 1, max: 100 }),
  /** The next_cursor of the page before; the first page without it. */
  cursor: z
    .string()
    .trim()
    .refine((s) => parseAuditCursor(s) !== null, { error: 'must be the next_cursor of the page before' })
    .optional(),
  category: ZAuditCategorySchema.optional(),
  /** Who did it: a username, exactly. */
  actor: z.string().trim().min(1, { error: 'must not be empty' }).max(100, { error: 'must be at most 100 characters' }).optional(),
  /** From this day (inclusive; a business day in TIME_ZONE), or a date and time. */
  from: zQueryDate.optional(),
  /** Up to this day (inclusive when a date only). */
  to: zQueryDate.optional(),
});
export type AuditLogQuery = z.infer<typeof ZAuditLogQuerySchema>;

/**
 * GET /audit-log/export: every entry the filters of GET /audit-log match (no
 * pages), newest first, as a CSV file: an auditor's copy or a spreadsheet's.
 */
export const ZAuditLogExportQuerySchema = ZAuditLogQuerySchema.pick({ category: true, actor: true, from: true, to: true });
export type AuditLogExportQuery = z.infer<typeof ZAuditLogExportQuerySchema>;

/** The columns of the Activity Log CSV, in order. Times are UTC (ISO 8601); details is the entry's JSON. */
export const AUDIT_LOG_CSV_COLUMNS = ['time', 'kind', 'action', 'user', 'description', 'entity_type', 'entity_id', 'ip', 'details'] as const;

export const ZAuditEntrySchema = z.object({
  id: z.number().int(),
  timestamp: z.string(),
  action: z.string(),
  category: ZAuditCategorySchema.nullable(),
  /** The username that did it; null for the system (the payment pipeline, a sweep). */
  actor: z.string().nullable(),
  entity_type: z.string().nullable(),
  entity_id: z.string().nullable(),
  description: z.string(),
  /** The client address, for sign-ins. */
  ip: z.string().nullable(),
  /** What the action recorded besides its description (e.g. a reversed payment's figures before and after). */
  details: z.record(z.string(), z.unknown()).nullable(),
});
export type AuditEntry = z.infer<typeof ZAuditEntrySchema>;

export const ZAuditLogReplySchema = z.object({
  data: z.array(ZAuditEntrySchema),
  /** Pass as cursor for the next (older) page; null on the last page. */
  next_cursor: z.string().nullable(),
});
export type AuditLogReply = z.infer<typeof ZAuditLogReplySchema>;
