import type { DeviceWarranty } from '@kidogo/contracts';
import { Prisma } from '../generated/prisma/client.js';

/**
 * The warranty of the device `i` (an alias of items): its product's months
 * (product_warranties, matched by name whatever the case, through the unique
 * index on lower(product_name)) from the day its account began (assigned_at,
 * which a device swap keeps). Adds the columns warranty_months and
 * warranty_until, null for a device given to nobody or of a product with none
 * (or when `also`, a further condition, does not hold).
 */
export function warrantyJoin(i = 'i', also: Prisma.Sql = Prisma.empty): Prisma.Sql {
  const item = Prisma.raw(i);
  return Prisma.sql`LEFT JOIN LATERAL (
      SELECT pw.months AS warranty_months, ${item}.assigned_at + make_interval(months => pw.months) AS warranty_until
      FROM product_warranties pw
      WHERE pw.organization_id = ${item}.organization_id AND lower(pw.product_name) = lower(${item}.product_name) AND ${item}.assigned_at IS NOT NULL
        ${also === Prisma.empty ? Prisma.empty : Prisma.sql`AND ${also}`}
    ) warranty ON true`;
}

export interface WarrantyColumns {
  warranty_months: number | null;
  warranty_until: Date | null;
  assigned_at: Date | null;
}

/** The reply's warranty from warrantyJoin's columns; in warranty while now is before its end. */
export function toWarranty(row: WarrantyColumns, now = new Date()): DeviceWarranty | null {
  if (row.warranty_months === null || row.warranty_until === null || row.assigned_at === null) return null;
  return {
    months: row.warranty_months,
    starts_at: row.assigned_at.toISOString(),
    until: row.warranty_until.toISOString(),
    in_warranty: now < row.warranty_until,
  };
}
