import { z } from 'zod';
import { ZMoneySchema, ZPagePaginationSchema, zQueryInt } from './common.js';
import { zIdInput, zRequiredText } from './fields.js';
import { ZDeviceWarrantySchema } from './warranties.js';

/**
 * A device swap: a customer's faulty device replaced by one from stock, the
 * account going with the customer. What they paid, the days they have left,
 * an activation or a payoff, the plan of the device's own and the date the
 * account began all move to the replacement, which gets a code for them at
 * once; the faulty device is locked (unless it is already off) and goes to
 * maintenance or is retired, with an empty account. It is no sale: no new
 * account, no credit check, no device given in the Agent or Portfolio
 * reports. Owners and admins (README "Device swaps").
 */
export const SWAP_OLD_STATUSES = ['maintenance', 'retired'] as const;
export type SwapOldStatus = (typeof SWAP_OLD_STATUSES)[number];

/** POST /items/swap. */
export const ZItemSwapSchema = z.object({
  /** The device the customer has now. */
  item_serial_number: zRequiredText(100),
  /** Its replacement: a device in stock (available), given to nobody. */
  new_serial_number: zRequiredText(100),
  reason: z
    .string({ error: 'is required' })
    .trim()
    .min(3, { error: 'must say why, in at least 3 characters' })
    .max(200, { error: 'must be at most 200 characters' }),
  /** Issue the set_time 0 code that locks the old device (default); false when it is off for good. */
  lock: z.boolean({ error: 'must be true or false' }).default(true),
  /** Where the old device goes: maintenance (to be repaired, the default) or retired (beyond repair). */
  status: z.enum(SWAP_OLD_STATUSES, { error: `must be one of ${SWAP_OLD_STATUSES.join(', ')}` }).default('maintenance'),
  /**
   * The stock location the old device is taken to (a workshop), or null for
   * none; left out, it stays at the place it was given from.
   */
  location_id: z.union([zIdInput, z.null()], { error: "must be a stock location's id, or null for none" }).optional(),
  /**
   * The service ticket of the old device the swap answers (a fault reported by the customer), not yet resolved: the
   * swap is written in its history, where the technician resolves it.
   */
  ticket_id: zIdInput.optional(),
});
export type ItemSwapInput = z.input<typeof ZItemSwapSchema>;

const ZCode = z.object({ token: z.string(), token_count: z.number().int() });

export const ZItemSwapReplySchema = z.object({
  message: z.string(),
  swap_id: z.number().int(),
  customer_id: z.number().int(),
  customer_name: z.string(),
  old_serial_number: z.string(),
  new_serial_number: z.string(),
  /**
   * The code to enter on the replacement: set_time with the days the customer
   * had left (whole days, rounded up), unlock for a paid-off account; null
   * when the account had no days left (the replacement stays off until the
   * next payment).
   */
  token: ZCode.extend({ token_type: z.enum(['set_time', 'unlock']), days: z.number().int() }).nullable(),
  /** The code that locks the old device (set_time, 0 days); null when lock was false. */
  lock_token: ZCode.nullable(),
  /** What the account moved with. */
  total_paid: ZMoneySchema,
  days_moved: z.number().int(),
  paid_off: z.boolean(),
  credit_until: z.string().nullable(),
  /** Where the old device is now. */
  status: z.enum(SWAP_OLD_STATUSES),
  location_id: z.number().int().nullable(),
  location_name: z.string().nullable(),
  /** The service ticket the swap was written in; null when none was named. */
  ticket_id: z.number().int().nullable(),
  /** The old device's warranty on the day of the swap (README "Warranties"); null when its product has none set. */
  warranty: ZDeviceWarrantySchema.nullable(),
});
export type ItemSwapReply = z.infer<typeof ZItemSwapReplySchema>;

/** GET /device-swaps: newest first; one device's (either side of the swap) or one customer's. */
export const ZDeviceSwapsQuerySchema = z.object({
  page: zQueryInt({ default: 1, min: 1, max: 100_000 }),
  limit: zQueryInt({ default: 20, min: 1, max: 100 }),
  serial_number: z.string().trim().max(100, { error: 'must be at most 100 characters' }).optional(),
  customer_id: z.preprocess((v) => (v === '' ? undefined : v), zIdInput.optional()),
});
export type DeviceSwapsQuery = z.input<typeof ZDeviceSwapsQuerySchema>;

export const ZDeviceSwapSchema = z.object({
  swap_id: z.number().int(),
  swapped_at: z.string(),
  swapped_by: z.string().nullable(),
  reason: z.string(),
  customer_id: z.number().int(),
  customer_name: z.string(),
  old_serial_number: z.string(),
  new_serial_number: z.string(),
  total_paid: ZMoneySchema,
  days_moved: z.number().int(),
  paid_off: z.boolean(),
  /** The replacement's code: set_time, unlock, or null when none was needed. */
  token_type: z.enum(['set_time', 'unlock']).nullable(),
  token_count: z.number().int().nullable(),
  /** The count of the code that locked the old device; null when it was not locked. */
  lock_token_count: z.number().int().nullable(),
  old_status: z.enum(SWAP_OLD_STATUSES),
  /** When the old device's warranty ended or ends, as it was on the day of the swap; null when none was set. */
  warranty_until: z.string().nullable(),
  /** Whether the swap was made within the old device's warranty; null when none was set. */
  in_warranty: z.boolean().nullable(),
});
export type DeviceSwap = z.infer<typeof ZDeviceSwapSchema>;

export const ZDeviceSwapsReplySchema = z.object({
  data: z.array(ZDeviceSwapSchema),
  pagination: ZPagePaginationSchema,
});
export type DeviceSwapsReply = z.infer<typeof ZDeviceSwapsReplySchema>;
