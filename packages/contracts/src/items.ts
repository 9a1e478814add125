import { z } from 'zod';
import { zOverrideReason } from './credit-check.js';
import { ZMoneySchema, ZOffsetPaginationSchema, zMoneyInput, zQueryInt, zQueryOffset, zWholeNumber } from './common.js';
import { zIdInput, zOptionalText, zRequiredText, zSearchTerm } from './fields.js';

export const ITEM_STATUSES = ['available', 'assigned', 'maintenance', 'retired'] as const;
export const ZItemStatusSchema = z.enum(ITEM_STATUSES);
export type ItemStatus = z.infer<typeof ZItemStatusSchema>;

/** Upper case, spaces and dashes removed: how serials are compared ("sn-001 2" = "SN0012"). */
export const normalizeSerial = (serial: string) => serial.toUpperCase().replace(/[\s-]/g, '');

const zItemStatusInput = z
  .string({ error: `must be one of ${ITEM_STATUSES.join(', ')}` })
  .trim()
  .toLowerCase()
  .pipe(z.enum(ITEM_STATUSES, { error: `must be one of ${ITEM_STATUSES.join(', ')}` }));

/** OpenPAYGO factory data: 32 hexadecimal characters. */
const zSecretKey = z
  .string({ error: 'must be 32 hexadecimal characters' })
  .trim()
  .regex(/^[0-9a-fA-F]{32}$/, { error: 'must be 32 hexadecimal characters' });

/** OpenPAYGO starting code: a whole number from 0 to 999999999 (a number or digits). */
const zStartingCode = z.preprocess(
  (v) => (typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : v),
  z
    .number({ error: 'must be a whole number from 0 to 999999999' })
    .int({ error: 'must be a whole number from 0 to 999999999' })
    .min(0, { error: 'must be a whole number from 0 to 999999999' })
    .max(999_999_999, { error: 'must be a whole number from 0 to 999999999' }),
);

/** Empty string or null counts as not given (CSV cells, optional form inputs). */
const blankIsAbsent = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === null || (typeof v === 'string' && v.trim() === '') ? undefined : v), schema.optional());

/**
 * POST /items/add (and each row of POST /items/add/bulk). serial_number is
 * unique in the organization, also in its normal form (upper case without
 * spaces and dashes). secret_key and starting_code are the device maker's
 * OpenPAYGO data: when absent a random key is generated and the starting
 * code derived from it. They are stored encrypted and never returned.
 */
export const ZItemInputSchema = z.object({
  serial_number: zRequiredText(100),
  product_name: zRequiredText(200),
  product_type: zOptionalText(100),
  manufacturer: zOptionalText(200),
  model: zOptionalText(200),
  description: zOptionalText(2000),
  price: blankIsAbsent(zMoneyInput({ min: 0 })).transform((v) => v ?? 0),
  status: blankIsAbsent(zItemStatusInput).transform((v) => v ?? 'available'),
  product_oem: zOptionalText(100),
  secret_key: blankIsAbsent(zSecretKey),
  starting_code: blankIsAbsent(zStartingCode),
  /**
   * For a device already in use, moved from another system: the count of the
   * last token it accepted, so that the next code is one it takes. Left out, a
   * new device's (1).
   */
  token_count: blankIsAbsent(
    z.preprocess((v) => (typeof v === 'string' && /^\s*-?\d+\s*$/.test(v) ? Number(v) : v), zWholeNumber(0, 2_147_483_647)),
  ),
  /** The stock location it is kept at, by name (Stock Locations); left out, none. */
  location: zOptionalText(100),
  organization_id: z.unknown().optional().describe('Ignored: the organization comes from the token'),
});
export type ItemInput = z.input<typeof ZItemInputSchema>;

/** The columns of the device CSV (POST /items/add/bulk), each a field of ZItemInputSchema; the first two are required. */
export const ITEM_IMPORT_COLUMNS = [
  'serial_number',
  'product_name',
  'product_type',
  'manufacturer',
  'model',
  'description',
  'price',
  'status',
  'product_oem',
  'secret_key',
  'starting_code',
  'token_count',
  'location',
] as const satisfies readonly (keyof ItemInput)[];
export type ItemInputParsed = z.output<typeof ZItemInputSchema>;

/**
 * PUT /items/{serial_number}: any subset. status "assigned" is only accepted
 * on a device that is assigned (it is set by POST /items/assign);
 * "available" and "retired" only on a device that is not.
 */
export const ZItemUpdateSchema = z.object({
  product_name: zRequiredText(200).optional(),
  product_type: zOptionalText(100),
  manufacturer: zOptionalText(200),
  model: zOptionalText(200),
  description: zOptionalText(2000),
  price: zMoneyInput({ min: 0 }).optional(),
  status: zItemStatusInput.optional(),
  product_oem: zOptionalText(100),
  organization_id: z.unknown().optional().describe('Ignored: the organization comes from the token'),
});
export type ItemUpdate = z.input<typeof ZItemUpdateSchema>;
export type ItemUpdateParsed = z.output<typeof ZItemUpdateSchema>;

/** A device as every reply shows it. Its secret key and starting code are never part of it. */
export const ZItemSchema = z.object({
  item_id: z.number().int(),
  organization_id: z.string(),
  serial_number: z.string(),
  product_name: z.string(),
  product_type: z.string().nullable(),
  manufacturer: z.string().nullable(),
  model: z.string().nullable(),
  description: z.string().nullable(),
  price: ZMoneySchema,
  status: ZItemStatusSchema,
  product_oem: z.string().nullable(),
  is_assigned: z.boolean(),
  customer_id: z.number().int().nullable(),
  customer_name: z.string().nullable(),
  assigned_at: z.string().nullable(),
  /** OpenPAYGO count of the last token issued. */
  token_count: z.number().int(),
  total_paid: ZMoneySchema,
  credit_until: z.string().nullable(),
  paid_off: z.boolean(),
  /** The stock location it is kept at, or was given out from; null for none. */
  location_id: z.number().int().nullable(),
  location_name: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Item = z.infer<typeof ZItemSchema>;

/** GET /items: newest first; serial_number is a partial match (case-insensitive), product_oem exact (case-insensitive). */
export const ZItemListQuerySchema = z.object({
  limit: zQueryInt({ default: 10, min: 1, max: 100 }),
  offset: zQueryOffset(),
  serial_number: zSearchTerm,
  product_oem: zSearchTerm,
});
export type ItemListQuery = z.input<typeof ZItemListQuerySchema>;

export const ZItemListReplySchema = z.object({
  data: z.array(ZItemSchema),
  pagination: ZOffsetPaginationSchema,
});
export type ItemListReply = z.infer<typeof ZItemListReplySchema>;

/** POST /items/fetch: exact serial, or the same serial written with other case, spaces or dashes. */
export const ZItemFetchSchema = z.object({ serial_number: zRequiredText(100) });
export type ItemFetchInput = z.input<typeof ZItemFetchSchema>;

/**
 * POST /items/search: `query` matches serial number, product name or
 * manufacturer (case-insensitive, partial); empty lists every device.
 * is_assigned narrows to assigned (true) or unassigned (false) devices.
 */
export const ZItemSearchSchema = z.object({
  query: z.string({ error: 'must be text' }).trim().max(200, { error: 'must be at most 200 characters' }).optional().default(''),
  limit: zQueryInt({ default: 5, min: 1, max: 100 }),
  offset: zQueryOffset(),
  is_assigned: z.boolean({ error: 'must be true or false' }).optional(),
});
export type ItemSearchInput = z.input<typeof ZItemSearchSchema>;

/** POST /items/assign. organization_id is accepted (the web sends "") and ignored. */
export const ZItemAssignSchema = z.object({
  customer_id: zIdInput,
  item_serial_number: zRequiredText(100),
  override_reason: zOverrideReason,
  organization_id: z.unknown().optional().describe('Ignored: the organization comes from the token'),
});
export type ItemAssignInput = z.input<typeof ZItemAssignSchema>;

export const ZItemAssignReplySchema = z.object({
  message: z.string(),
  /** False when the device was already assigned to this customer (nothing changed). */
  changed: z.boolean(),
  item: ZItemSchema,
});
export type ItemAssignReply = z.infer<typeof ZItemAssignReplySchema>;

/** POST /items/unassign: the device goes back to available; its assignment history row is closed. */
export const ZItemUnassignSchema = z.object({ item_serial_number: zRequiredText(100) });
export type ItemUnassignInput = z.input<typeof ZItemUnassignSchema>;

export const ZItemReplySchema = z.object({ message: z.string(), item: ZItemSchema });
export type ItemReply = z.infer<typeof ZItemReplySchema>;

/**
 * POST /items/repossess: a device taken back from a customer who stopped
 * paying. Locked with a set_time 0 token to enter on it (unless lock is
 * false: it is already off), taken off the customer, and what was left to pay
 * on it recorded as written off.
 */
/** Where a repossessed device goes (ZItemRepossessSchema.status); `retired`: it was not recovered. */
export const REPOSSESSED_STATUSES = ['maintenance', 'available', 'retired'] as const;

export const ZItemRepossessSchema = z.object({
  item_serial_number: zRequiredText(100),
  reason: z
    .string({ error: 'is required' })
    .trim()
    .min(3, { error: 'must say why, in at least 3 characters' })
    .max(200, { error: 'must be at most 200 characters' }),
  /** Issue the set_time 0 token that locks the device (default); false when it is already locked or broken. */
  lock: z.boolean({ error: 'must be true or false' }).default(true),
  /**
   * Where it goes: maintenance (to be checked and refurbished, the default), straight back to available stock, or
   * retired when it was not recovered (lost, stolen, gone with the customer): written off with what was left to pay,
   * out of stock and at no stock location.
   */
  status: z.enum(REPOSSESSED_STATUSES).default('maintenance'),
  /**
   * The stock location it is taken to (a warehouse that refurbishes), or null
   * for none; left out, it stays at the place it was given from.
   */
  location_id: z.union([zIdInput, z.null()], { error: "must be a stock location's id, or null for none" }).optional(),
}).refine((v) => v.status !== 'retired' || v.location_id === undefined || v.location_id === null, {
  error: 'a device that was not recovered (status retired) is taken to no stock location',
  path: ['location_id'],
});
export type ItemRepossessInput = z.input<typeof ZItemRepossessSchema>;

export const ZItemRepossessReplySchema = z.object({
  message: z.string(),
  serial_number: z.string(),
  customer_id: z.number().int(),
  customer_name: z.string(),
  /** The token that locks the device (set_time, 0 days), to enter on it; null when lock was false. */
  lock_token: z.object({ token: z.string(), token_count: z.number().int() }).nullable(),
  total_paid: ZMoneySchema,
  /** What was left to pay on the device, now written off; null when its plan has no payoff price. */
  written_off: ZMoneySchema.nullable(),
  status: z.enum(REPOSSESSED_STATUSES),
  /** The stock location it is at now; null for none. */
  location_id: z.number().int().nullable(),
  location_name: z.string().nullable(),
});
export type ItemRepossessReply = z.infer<typeof ZItemRepossessReplySchema>;

/**
 * POST /items/discount: take an amount off what is left to pay on a device (README "Discounts"): the price of paying
 * off early, goodwill, a price corrected. Owners and admins; at most what is left to pay. A discount of all of it pays
 * the device off: the reply carries its unlock code.
 */
export const ZItemDiscountSchema = z.object({
  item_serial_number: zRequiredText(100),
  amount: zMoneyInput({ min: 0.01, max: 100_000_000 }),
  reason: z
    .string({ error: 'is required' })
    .trim()
    .min(3, { error: 'must say why, in at least 3 characters' })
    .max(200, { error: 'must be at most 200 characters' }),
});
export type ItemDiscountInput = z.input<typeof ZItemDiscountSchema>;

/** One discount given on a device (GET /items/{serial_number}/discounts), newest first. */
export const ZDeviceDiscountSchema = z.object({
  discount_id: z.number().int(),
  serial_number: z.string(),
  customer_id: z.number().int(),
  customer_name: z.string(),
  amount: ZMoneySchema,
  currency: z.string(),
  reason: z.string(),
  /** What was left to pay on the device before and after it. */
  remaining_before: ZMoneySchema,
  remaining_after: ZMoneySchema,
  /** The count of the code that unlocked the device for good, when the discount paid it off; else null. */
  unlock_token_count: z.number().int().nullable(),
  given_by: z.string().nullable(),
  given_at: z.string(),
  /** Set when it was voided (given by mistake): what it took off is back on the account. */
  voided_at: z.string().nullable(),
  voided_by: z.string().nullable(),
  void_reason: z.string().nullable(),
});
export type DeviceDiscount = z.infer<typeof ZDeviceDiscountSchema>;

export const ZDeviceDiscountListSchema = z.object({
  data: z.array(ZDeviceDiscountSchema),
  /** The discounts on the device's present account, added up (0.00 for none). */
  total: ZMoneySchema,
});
export type DeviceDiscountList = z.infer<typeof ZDeviceDiscountListSchema>;

/** POST /items/discounts/{discount_id}/void: a discount given by mistake, taken back with why. */
export const ZDiscountParamsSchema = z.object({ discount_id: zIdInput });
export const ZDiscountVoidSchema = z.object({
  reason: z
    .string({ error: 'is required' })
    .trim()
    .min(3, { error: 'must say why, in at least 3 characters' })
    .max(200, { error: 'must be at most 200 characters' }),
});
export type DiscountVoidInput = z.input<typeof ZDiscountVoidSchema>;

export const ZDiscountVoidReplySchema = z.object({
  message: z.string(),
  discount: ZDeviceDiscountSchema,
  /** What is left to pay on the device now, the discount's amount back on it. */
  remaining: ZMoneySchema,
});
export type DiscountVoidReply = z.infer<typeof ZDiscountVoidReplySchema>;

export const ZItemDiscountReplySchema = z.object({
  message: z.string(),
  discount: ZDeviceDiscountSchema,
  /** The device's payoff price now, after every discount on its account. */
  payoff: ZMoneySchema,
  /** What is left to pay now (remaining_after). */
  remaining: ZMoneySchema,
  paid_off: z.boolean(),
  /** The code that unlocks the device for good, to enter on it, when the discount paid it off; else null. */
  unlock_token: z.object({ token: z.string(), token_count: z.number().int() }).nullable(),
});
export type ItemDiscountReply = z.infer<typeof ZItemDiscountReplySchema>;

/** GET /customers/{id}/items: the customer's devices, most recently assigned first. */
export const ZCustomerItemsReplySchema = z.object({ data: z.array(ZItemSchema) });
export type CustomerItemsReply = z.infer<typeof ZCustomerItemsReplySchema>;

export const ZSerialParamsSchema = z.object({
  serial_number: z.string().trim().min(1, { error: 'is required' }).max(100, { error: 'must be at most 100 characters' }),
});
