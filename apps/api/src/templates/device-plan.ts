import { Prisma } from '../generated/prisma/client.js';

/**
 * The payment plan of the device `i`: the active assignment made for this
 * device (item_id set) when there is one, else its customer's active
 * assignment (item_id null), which covers all their devices. Joined as the
 * payment_templates row `t` (null columns when the device has neither, or
 * no customer), with the two assignments as `t_own` and `t_all`: the plan
 * is the device's own when `t_own.assignment_id IS NOT NULL`. Every reader
 * of a device's plan joins it through here: the payment pipeline and the
 * token endpoints, balances, collections, reminders, metrics and the
 * device's activity.
 *
 * Plain joins rather than a LATERAL probe, so that the statements over
 * every device (metrics, the Collections export) can hash them; a single
 * device's are two index probes.
 */
export function devicePlanJoin(i = 'i', t = 't'): Prisma.Sql {
  const [d, p, own, all] = [Prisma.raw(i), Prisma.raw(t), Prisma.raw(`${t}_own`), Prisma.raw(`${t}_all`)];
  return Prisma.sql`
    LEFT JOIN template_assignments ${own}
      ON ${own}.organization_id = ${d}.organization_id AND ${own}.item_id IS NOT NULL AND ${own}.item_id = ${d}.item_id
     AND ${own}.customer_id = ${d}.customer_id AND ${own}.is_active
    LEFT JOIN template_assignments ${all}
      ON ${all}.organization_id = ${d}.organization_id AND ${all}.customer_id = ${d}.customer_id
     AND ${all}.is_active AND ${all}.item_id IS NULL
    LEFT JOIN payment_templates ${p}
      ON ${p}.organization_id = ${d}.organization_id AND ${p}.template_id = coalesce(${own}.template_id, ${all}.template_id)`;
}
