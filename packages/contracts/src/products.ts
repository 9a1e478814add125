import { z } from 'zod';
import { ZPagePaginationSchema, zQueryInt } from './common.js';
import { zSearchTerm } from './fields.js';
import { ITEM_IMPORT_COLUMNS, ZItemSchema } from './items.js';

/** GET /products/summary: devices of the organization; assigned = is_assigned. */
export const ZProductsSummaryReplySchema = z.object({
  data: z.object({
    total_products: z.number().int(),
    assigned_products: z.number().int(),
    unassigned_products: z.number().int(),
  }),
});
export type ProductsSummaryReply = z.infer<typeof ZProductsSummaryReplySchema>;

export const PRODUCT_STATUS_FILTERS = ['all', 'assigned', 'unassigned'] as const;

/**
 * GET /products: newest first. search matches serial number, product name,
 * manufacturer or OEM (case-insensitive, partial); status filters on
 * is_assigned.
 */
export const ZProductListQuerySchema = z.object({
  // With at most 100 per page, page 10,000,000 starts below MAX_OFFSET.
  page: zQueryInt({ default: 1, min: 1, max: 10_000_000 }),
  limit: zQueryInt({ default: 20, min: 1, max: 100 }),
  search: zSearchTerm,
  status: z.preprocess((v) => (v === undefined || v === '' ? 'all' : v), z.enum(PRODUCT_STATUS_FILTERS)),
  /** One stock location's devices (its id), or those in none ("none"). */
  location_id: z.preprocess(
    (v) => (v === undefined || v === '' ? undefined : typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : v),
    z
      .union([z.number().int().min(1).max(2_147_483_647), z.literal('none')], { error: "must be a stock location's id, or none" })
      .optional(),
  ),
});
export type ProductListQuery = z.input<typeof ZProductListQuerySchema>;

/** A product row: the device with its customer's name and assignment date (both on ZItemSchema). */
export const ZProductSchema = ZItemSchema;
export type Product = z.infer<typeof ZProductSchema>;

export const ZProductPaginationSchema = ZPagePaginationSchema;

export const ZProductListReplySchema = z.object({
  data: z.object({
    items: z.array(ZProductSchema),
    pagination: ZProductPaginationSchema,
  }),
});
export type ProductListReply = z.infer<typeof ZProductListReplySchema>;

/**
 * GET /products/export: the devices of the Products page's filters (search,
 * status, location_id) as CSV, oldest first. The first columns are those of
 * the device import (ITEM_IMPORT_COLUMNS, without the factory secrets and the
 * token count), then who has each device and what was paid on it.
 */
export const ZProductExportQuerySchema = ZProductListQuerySchema.pick({ search: true, status: true, location_id: true });
export type ProductExportQuery = z.input<typeof ZProductExportQuerySchema>;

export const PRODUCT_CSV_COLUMNS = [
  // The import's columns up to product_oem (the factory secrets and the token count follow them there).
  ...ITEM_IMPORT_COLUMNS.slice(0, ITEM_IMPORT_COLUMNS.indexOf('product_oem') + 1),
  'location',
  'customer_id',
  'customer_name',
  'assigned_at',
  'total_paid',
  'credit_until',
  'paid_off',
  'token_count',
  'created_at',
] as const;

/** The file name the export is saved under. */
export const PRODUCT_EXPORT_FILE_NAME = 'products.csv';
