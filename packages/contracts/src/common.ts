import { z } from 'zod';

/** Every error reply: the web shows `message`, else `detail`. */
export const ZErrorSchema = z.object({
  detail: z.unknown(),
  message: z.string(),
  errors: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
});
export type ErrorReply = z.infer<typeof ZErrorSchema>;

/** 403 body when the caller's organization is disabled or suspended. */
export const ZServiceBlockedSchema = z.object({
  detail: z.object({
    error: z.enum(['SERVICE_DISABLED', 'SERVICE_SUSPENDED']),
    message: z.string(),
    reason: z.string().nullable(),
    disabled_at: z.string().nullable().optional(),
    suspended_at: z.string().nullable().optional(),
    support_message: z.string(),
  }),
  message: z.string(),
});
export type ServiceBlockedReply = z.infer<typeof ZServiceBlockedSchema>;

export const ROLES = ['super_admin', 'owner', 'admin', 'staff'] as const;
export const ZRoleSchema = z.enum(ROLES);
export type Role = z.infer<typeof ZRoleSchema>;

export const APP_TYPES = ['kidogo', 'amped', 'generic_oem'] as const;
export const ZAppTypeSchema = z.enum(APP_TYPES);
export type AppType = z.infer<typeof ZAppTypeSchema>;

export const ORG_STATUSES = ['active', 'suspended', 'disabled'] as const;
export const ZOrgStatusSchema = z.enum(ORG_STATUSES);
export type OrgStatus = z.infer<typeof ZOrgStatusSchema>;

/**
 * Query-string integers: absent or empty → the default; anything that is not
 * a whole number in range is a 400 naming the parameter.
 */
export const zQueryInt = (opts: { default: number; min?: number; max?: number }) =>
  z.preprocess(
    (v) => (v === undefined || v === null || v === '' ? undefined : typeof v === 'string' ? Number(v) : v),
    z
      .number({ error: 'must be a whole number' })
      .int({ error: 'must be a whole number' })
      .min(opts.min ?? 0, { error: `must be at least ${opts.min ?? 0}` })
      .max(opts.max ?? Number.MAX_SAFE_INTEGER, { error: `must be at most ${opts.max ?? Number.MAX_SAFE_INTEGER}` })
      .default(opts.default),
  );

/**
 * The deepest row a list can be asked for: every offset (and every page
 * times its size) fits PostgreSQL's integer, so a page past any real list is
 * an empty page, and a larger one a 400 naming the field.
 */
/** A whole number in a JSON body, from `min` to `max`, with the field's own message for each way it can be wrong. */
export const zWholeNumber = (min: number, max: number) =>
  z
    .number({ error: 'must be a whole number' })
    .int({ error: 'must be a whole number' })
    .min(min, { error: `must be at least ${min}` })
    .max(max, { error: `must be at most ${max}` });

export const MAX_OFFSET = 1_000_000_000;

/** The `offset` of a limit/offset list: 0 to MAX_OFFSET. */
export const zQueryOffset = () => zQueryInt({ default: 0, min: 0, max: MAX_OFFSET });

/** Limit/offset paging used by the customer, item and template lists. */
export const ZOffsetPageQuerySchema = z.object({
  limit: zQueryInt({ default: 10, min: 1, max: 100 }),
  offset: zQueryOffset(),
});

export const ZOffsetPaginationSchema = z.object({
  total: z.number().int(),
  total_pages: z.number().int(),
  limit: z.number().int(),
  offset: z.number().int(),
});
export type OffsetPagination = z.infer<typeof ZOffsetPaginationSchema>;

/** The pagination of a list read by page number (page from 1, limit per page). */
export const ZPagePaginationSchema = z.object({
  total: z.number().int(),
  total_pages: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
});
export type PagePagination = z.infer<typeof ZPagePaginationSchema>;

/**
 * Whether text starting with YYYY-MM-DD names a day of the calendar.
 * Date.parse alone is not enough: it rolls "2027-02-30" over to 2 March.
 */
export function isCalendarDay(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(s);
  if (!m) return false;
  const [y, month, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const day = new Date(Date.UTC(y, month - 1, d));
  return day.getUTCFullYear() === y && day.getUTCMonth() === month - 1 && day.getUTCDate() === d;
}

/** Decimal amounts travel as strings with two decimals ("1500.00"), never floats. */
export const ZMoneySchema = z.string().regex(/^-?\d+(\.\d{1,4})?$/);
export type Money = z.infer<typeof ZMoneySchema>;

/** A money input: a number or numeric string, at most 2 decimals, within range. */
export const zMoneyInput = (opts: { min?: number; max?: number } = {}) =>
  z.preprocess(
    (v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v),
    z
      .number({ error: 'must be a number' })
      .finite({ error: 'must be a number' })
      .min(opts.min ?? 0, { error: `must be at least ${opts.min ?? 0}` })
      .max(opts.max ?? 999_999_999_999, { error: `must be at most ${opts.max ?? 999_999_999_999}` })
      .refine((n) => Math.abs(Math.round(n * 100) - n * 100) < 1e-6, { error: 'must have at most 2 decimals' }),
  );

export const ZMessageReplySchema = z.object({ message: z.string() });
export type MessageReply = z.infer<typeof ZMessageReplySchema>;
