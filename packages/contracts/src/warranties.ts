import { z } from 'zod';
import { zWholeNumber } from './common.js';
import { zRequiredText } from './fields.js';

/**
 * Product warranties: how many months the maker (or the organization) stands
 * behind each product, set by owners and admins in Settings → Warranties. A
 * device's warranty runs from the day its account began (the sale, kept
 * through a device swap: a replacement carries the warranty of the device it
 * replaced) for its product's months; a product is matched by its name,
 * whatever the case (README "Warranties").
 */
export const WARRANTY_MONTHS_MAX = 120;
export const MAX_WARRANTIES = 200;

export const ZWarrantyRuleSchema = z.object({
  product_name: zRequiredText(200),
  months: zWholeNumber(1, WARRANTY_MONTHS_MAX),
});
export type WarrantyRule = z.infer<typeof ZWarrantyRuleSchema>;

/** PUT /settings/warranties: the whole list, replacing the one before (an empty list sets none). */
export const ZWarrantySettingsInputSchema = z.object({
  warranties: z
    .array(ZWarrantyRuleSchema, { error: 'must be a list of {product_name, months}' })
    .max(MAX_WARRANTIES, { error: `must have at most ${MAX_WARRANTIES} products` })
    .superRefine((rules, ctx) => {
      const seen = new Map<string, number>();
      rules.forEach((r, i) => {
        const key = r.product_name.toLowerCase();
        const first = seen.get(key);
        if (first !== undefined) {
          ctx.addIssue({ code: 'custom', path: [i, 'product_name'], message: `${r.product_name} is already in the list (row ${first + 1})` });
        } else {
          seen.set(key, i);
        }
      });
    }),
});
export type WarrantySettingsInput = z.input<typeof ZWarrantySettingsInputSchema>;

export const ZWarrantySettingsSchema = z.object({
  /** The products with a warranty, by name, each with how many of the organization's devices it covers by name. */
  warranties: z.array(ZWarrantyRuleSchema.extend({ devices: z.number().int() })),
  /** The organization's product names that have no warranty set yet, to choose from. */
  other_products: z.array(z.string()),
});
export type WarrantySettings = z.infer<typeof ZWarrantySettingsSchema>;

/**
 * A device's warranty: its product's months from the day its account began.
 * Null for a device given to nobody, or of a product with no warranty set.
 */
export const ZDeviceWarrantySchema = z.object({
  months: z.number().int(),
  starts_at: z.string(),
  until: z.string(),
  in_warranty: z.boolean(),
});
export type DeviceWarranty = z.infer<typeof ZDeviceWarrantySchema>;

/** "In warranty until 6 Dec 2027" / "Out of warranty since 6 Dec 2025" (dates as the caller writes them). */
export const warrantyText = (w: { until: string; in_warranty: boolean }, formatDate: (iso: string) => string): string =>
  w.in_warranty ? `In warranty until ${formatDate(w.until)}` : `Out of warranty since ${formatDate(w.until)}`;
