import { z } from 'zod';
import { ZPagePaginationSchema, zQueryInt } from './common.js';
import { zIdInput, zOptionalText, zRequiredText } from './fields.js';

/**
 * Stock locations: the warehouses, shops and field agents that hold an
 * organization's devices before they are given to a customer (README "Stock
 * locations"). A device is in one place or in none ("not placed"); a device
 * given to a customer keeps the place it was given from.
 */

/** The most devices one move takes (a carton, a truck's load: a few hundred). */
export const STOCK_MOVE_MAX = 500;

/** POST /stock-locations. The name is unique in the organization, without regard to case. */
export const ZStockLocationInputSchema = z.object({
  name: zRequiredText(100),
  description: zOptionalText(300),
});
export type StockLocationInput = z.input<typeof ZStockLocationInputSchema>;

/** PUT /stock-locations/{location_id}: any subset. */
export const ZStockLocationUpdateSchema = z.object({
  name: zRequiredText(100).optional(),
  description: zOptionalText(300),
});
export type StockLocationUpdate = z.input<typeof ZStockLocationUpdateSchema>;

/**
 * Devices of a place: in stock (not given to a customer) by status, and
 * given out (with a customer, given from this place).
 */
export const ZStockCountsSchema = z.object({
  available: z.number().int(),
  maintenance: z.number().int(),
  retired: z.number().int(),
  given_out: z.number().int(),
  /** available + maintenance + retired: the devices physically there. */
  in_stock: z.number().int(),
});
export type StockCounts = z.infer<typeof ZStockCountsSchema>;

export const ZStockProductCountsSchema = ZStockCountsSchema.extend({ product_name: z.string() });
export type StockProductCounts = z.infer<typeof ZStockProductCountsSchema>;

export const ZStockLocationSchema = z.object({
  location_id: z.number().int(),
  name: z.string(),
  description: z.string().nullable(),
  created_at: z.string(),
  counts: ZStockCountsSchema,
  /** The counts by product name, most in stock first. */
  products: z.array(ZStockProductCountsSchema),
});
export type StockLocation = z.infer<typeof ZStockLocationSchema>;

/** GET /stock-locations: every place, by name, and the devices in none. */
export const ZStockLocationListReplySchema = z.object({
  data: z.array(ZStockLocationSchema),
  unplaced: z.object({ counts: ZStockCountsSchema, products: z.array(ZStockProductCountsSchema) }),
});
export type StockLocationListReply = z.infer<typeof ZStockLocationListReplySchema>;

export const ZStockLocationReplySchema = z.object({ message: z.string(), location: ZStockLocationSchema });
export type StockLocationReply = z.infer<typeof ZStockLocationReplySchema>;

/**
 * POST /stock-locations/move: devices in stock (not with a customer) to a
 * place, or to none (location_id null). All or nothing: an unknown serial or
 * a device with a customer refuses the whole move.
 */
export const ZStockMoveSchema = z.object({
  serial_numbers: z
    .array(zRequiredText(100), { error: 'must be a list of serial numbers' })
    .min(1, { error: 'must name at least one device' })
    .max(STOCK_MOVE_MAX, { error: `must name at most ${STOCK_MOVE_MAX} devices at a time` }),
  location_id: z.union([zIdInput, z.null()], { error: 'must be a place\'s id, or null for none' }),
  note: zOptionalText(300),
});
export type StockMoveInput = z.input<typeof ZStockMoveSchema>;

export const ZStockMoveReplySchema = z.object({
  message: z.string(),
  /** Devices that changed place. */
  moved: z.number().int(),
  /** Devices already there: not moved, no movement recorded. */
  unchanged: z.number().int(),
  location_id: z.number().int().nullable(),
  location_name: z.string().nullable(),
});
export type StockMoveReply = z.infer<typeof ZStockMoveReplySchema>;

/** GET /stock-movements: newest first; one device's (serial_number) or one place's, to or from it (location_id). */
export const ZStockMovementsQuerySchema = z.object({
  page: zQueryInt({ default: 1, min: 1, max: 100_000 }),
  limit: zQueryInt({ default: 20, min: 1, max: 100 }),
  serial_number: z.string().trim().max(100, { error: 'must be at most 100 characters' }).optional(),
  location_id: z.preprocess((v) => (v === '' ? undefined : v), zIdInput.optional()),
});
export type StockMovementsQuery = z.input<typeof ZStockMovementsQuerySchema>;

export const ZStockMovementSchema = z.object({
  movement_id: z.number().int(),
  serial_number: z.string(),
  product_name: z.string(),
  /** Where it was and where it went, by the names they had then; null for "not placed". */
  from_location: z.string().nullable(),
  to_location: z.string().nullable(),
  moved_by: z.string(),
  note: z.string().nullable(),
  moved_at: z.string(),
});
export type StockMovement = z.infer<typeof ZStockMovementSchema>;

export const ZStockMovementsReplySchema = z.object({
  data: z.array(ZStockMovementSchema),
  pagination: ZPagePaginationSchema,
});
export type StockMovementsReply = z.infer<typeof ZStockMovementsReplySchema>;

/** The most serial numbers one stock take compares: a warehouse's shelves. */
export const STOCK_TAKE_MAX = 20_000;
/** The most devices each list of a stock take's reply names; its count says how many there are in all. */
export const STOCK_TAKE_LIST_MAX = 1_000;

/**
 * POST /stock-locations/{location_id}/stock-take: the serial numbers counted
 * at a place (typed, scanned or from a file), compared with what Kidogo has
 * there. It changes no device; it is kept in the Activity Log.
 */
export const ZStockTakeSchema = z.object({
  serial_numbers: z
    .array(zRequiredText(100), { error: 'must be a list of serial numbers' })
    .min(1, { error: 'must name at least one device' })
    .max(STOCK_TAKE_MAX, { error: `must name at most ${STOCK_TAKE_MAX.toLocaleString('en-US')} devices at a time` }),
  note: zOptionalText(300),
});
export type StockTakeInput = z.input<typeof ZStockTakeSchema>;

export const ZStockTakeDeviceSchema = z.object({
  serial_number: z.string(),
  product_name: z.string(),
  /** available, maintenance, retired or assigned. */
  status: z.string(),
  /** The stock location Kidogo has it in; null for none. */
  location_name: z.string().nullable(),
  /** Given to a customer: not in stock anywhere. */
  with_customer: z.boolean(),
});
export type StockTakeDevice = z.infer<typeof ZStockTakeDeviceSchema>;

export const ZStockTakeReplySchema = z.object({
  message: z.string(),
  location_id: z.number().int(),
  location_name: z.string(),
  /** Devices Kidogo has in stock at the place. */
  expected: z.number().int(),
  /** Serial numbers counted, each once. */
  counted: z.number().int(),
  /** Serial numbers counted more than once (scanned twice). */
  duplicates: z.number().int(),
  /** Counted, and in stock at the place in Kidogo. */
  found: z.number().int(),
  /** In stock at the place in Kidogo, and not counted: by serial number, the first STOCK_TAKE_LIST_MAX. */
  missing: z.array(ZStockTakeDeviceSchema),
  missing_count: z.number().int(),
  /** Counted, but in Kidogo in another place, in none or with a customer: by serial number. */
  elsewhere: z.array(ZStockTakeDeviceSchema),
  elsewhere_count: z.number().int(),
  /** Counted, and no device of the organization has that serial number: as typed. */
  unknown: z.array(z.string()),
  unknown_count: z.number().int(),
});
export type StockTakeReply = z.infer<typeof ZStockTakeReplySchema>;
