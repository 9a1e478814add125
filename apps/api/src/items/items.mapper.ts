import { normalizeSerial, type Item, type ItemInputParsed } from '@kidogo/contracts';
import { Prisma, type Item as ItemRow } from '../generated/prisma/client.js';
import { iso, money } from '../catalog/format.js';

/** What every item query selects: never the sealed secrets. */
export const ITEM_SELECT = {
  id: true,
  organization_id: true,
  serial_number: true,
  product_name: true,
  product_type: true,
  manufacturer: true,
  model: true,
  description: true,
  price: true,
  status: true,
  product_oem: true,
  is_assigned: true,
  customer_id: true,
  assigned_at: true,
  token_count: true,
  total_paid: true,
  credit_until: true,
  paid_off_at: true,
  location_id: true,
  created_at: true,
  updated_at: true,
  customer: { select: { customer_name: true } },
  location: { select: { name: true } },
} satisfies Prisma.ItemSelect;

export type ItemView = Omit<ItemRow, 'secret_key_enc' | 'starting_code_enc' | 'serial_normalized' | 'credit' | 'activated_at'> & {
  customer: { customer_name: string } | null;
  location: { name: string } | null;
};

/** ITEM_SELECT in raw SQL (items i LEFT JOIN customers c LEFT JOIN stock_locations l: ITEM_JOINS), for the lists. */
export const ITEM_COLUMNS = Prisma.sql`
  i.item_id AS id, i.organization_id, i.serial_number, i.product_name, i.product_type, i.manufacturer, i.model,
  i.description, i.price, i.status::text AS status, i.product_oem, i.is_assigned, i.customer_id, i.assigned_at,
  i.token_count, i.total_paid, i.credit_until, i.paid_off_at, i.location_id, i.created_at, i.updated_at, c.customer_name,
  l.name AS location_name`;

/** The joins ITEM_COLUMNS reads from, after `FROM items i`. */
export const ITEM_JOINS = Prisma.sql`
  LEFT JOIN customers c ON c.organization_id = i.organization_id AND c.customer_id = i.customer_id
  LEFT JOIN stock_locations l ON l.organization_id = i.organization_id AND l.location_id = i.location_id`;

export type ItemRawRow = Omit<ItemView, 'customer' | 'location'> & { customer_name: string | null; location_name: string | null };

export const fromRaw = ({ customer_name, location_name, ...r }: ItemRawRow): ItemView => ({
  ...r,
  customer: customer_name === null ? null : { customer_name },
  location: location_name === null ? null : { name: location_name },
});

/** The one place a device row becomes a reply; the reply type has no field for its secrets. */
export function toItem(i: Pick<ItemView, keyof typeof ITEM_SELECT>): Item {
  return {
    item_id: i.id,
    organization_id: i.organization_id,
    serial_number: i.serial_number,
    product_name: i.product_name,
    product_type: i.product_type,
    manufacturer: i.manufacturer,
    model: i.model,
    description: i.description,
    price: money(i.price),
    status: i.status,
    product_oem: i.product_oem,
    is_assigned: i.is_assigned,
    customer_id: i.customer_id,
    customer_name: i.customer?.customer_name ?? null,
    assigned_at: iso(i.assigned_at),
    token_count: i.token_count,
    total_paid: money(i.total_paid),
    credit_until: iso(i.credit_until),
    paid_off: i.paid_off_at !== null,
    location_id: i.location_id,
    location_name: i.location?.name ?? null,
    created_at: i.created_at.toISOString(),
    updated_at: i.updated_at.toISOString(),
  };
}

/** Columns of the bulk device file (POST /items/add/bulk). */
export { ITEM_IMPORT_COLUMNS } from '@kidogo/contracts';

/** A new device's token count (items.token_count's default): the factory's. */
export const NEW_DEVICE_TOKEN_COUNT = 1;

/**
 * A device row to insert, without its sealed secrets (the caller adds them);
 * `locationId` is its stock location, found by the input's name.
 */
export function toItemCreate(
  orgId: string,
  i: ItemInputParsed,
  locationId: number | null = null,
): Omit<Prisma.ItemCreateManyInput, 'secret_key_enc' | 'starting_code_enc'> {
  return {
    organization_id: orgId,
    serial_number: i.serial_number,
    serial_normalized: normalizeSerial(i.serial_number),
    product_name: i.product_name,
    product_type: i.product_type ?? null,
    manufacturer: i.manufacturer ?? null,
    model: i.model ?? null,
    description: i.description ?? null,
    price: i.price,
    status: i.status,
    product_oem: i.product_oem ?? null,
    token_count: i.token_count ?? NEW_DEVICE_TOKEN_COUNT,
    location_id: locationId,
  };
}
