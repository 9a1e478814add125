import { Prisma } from '../generated/prisma/client.js';

/**
 * Whether the assignment `a` opened the account the device `i` holds now and
 * that account was brought over from another system (README "Bringing accounts
 * over"): its customer holds the device still, nobody else was given it since,
 * and it was not swapped away. What was paid before (a.brought_over_paid) is
 * part of that account's total paid. The device's page and the customer's
 * statement say so.
 */
export function broughtOverNow(a: string, i: string): Prisma.Sql {
  return Prisma.sql`${Prisma.raw(a)}.brought_over_at IS NOT NULL AND ${openedNow(a, i)}`;
}

/**
 * Whether the assignment `a` is the account transfer that gave the device `i`
 * to the customer who holds it now (README "Account transfers"), with the same
 * conditions: what had been paid on the account by then (a.transferred_paid)
 * is part of its total paid and no payment of theirs.
 */
export function transferredNow(a: string, i: string): Prisma.Sql {
  return Prisma.sql`${Prisma.raw(a)}.transferred_from_customer_id IS NOT NULL AND ${openedNow(a, i)}`;
}

/** The assignment `a` is of the customer who holds the device `i` now, nobody else was given it since, and it was not swapped away since. */
function openedNow(a: string, i: string): Prisma.Sql {
  const [r, d] = [Prisma.raw(a), Prisma.raw(i)];
  return Prisma.sql`${d}.is_assigned AND ${r}.customer_id = ${d}.customer_id
    AND NOT EXISTS (SELECT 1 FROM item_assignments b WHERE b.organization_id = ${r}.organization_id AND b.item_id = ${r}.item_id
                      AND b.customer_id <> ${r}.customer_id AND b.assigned_at > ${r}.assigned_at)
    AND NOT EXISTS (SELECT 1 FROM device_swaps s WHERE s.organization_id = ${r}.organization_id AND s.old_item_id = ${r}.item_id
                      AND s.swapped_at >= ${r}.assigned_at)`;
}

/**
 * What was paid, before they had them, on the accounts the customer holds now that were brought over from another
 * system or taken over from another customer (text, two decimals; "0.00" for none): the part of their devices' total
 * paid that is no payment of theirs received in Kidogo.
 */
export function paidBeforeSql(orgId: string, customerId: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`(SELECT coalesce(sum(coalesce(a.transferred_paid, a.brought_over_paid)), 0)::numeric(20,2)::text
    FROM items i JOIN item_assignments a ON a.organization_id = i.organization_id AND a.item_id = i.item_id
    WHERE i.organization_id = ${orgId} AND i.customer_id = ${customerId}
      AND (${broughtOverNow('a', 'i')} OR ${transferredNow('a', 'i')}))`;
}
