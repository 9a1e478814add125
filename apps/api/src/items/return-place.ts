import type { Run } from '../database/database.service.js';
import { Errors } from '../common/errors.js';
import { Prisma } from '../generated/prisma/client.js';
import type { AuthUser } from '../common/tenancy.js';
import { webhookEventsSql } from '../webhooks/webhook-events.js';

export interface Place {
  location_id: number | null;
  name: string | null;
}

/**
 * Where a device taken off its customer goes (a repossession, the old device
 * of a swap): the stock location it was given from unless `locationId` names
 * another (404 when it is not the organization's) or is null (none).
 */
export async function returnPlace(run: Run, orgId: string, itemId: number, locationId: number | null | undefined) {
  const [from] = await run<Place>(Prisma.sql`
    SELECT i.location_id, l.name FROM items i
    LEFT JOIN stock_locations l ON l.organization_id = i.organization_id AND l.location_id = i.location_id
    WHERE i.organization_id = ${orgId} AND i.item_id = ${itemId}::int`);
  const was: Place = { location_id: from?.location_id ?? null, name: from?.name ?? null };
  let to = was;
  if (locationId !== undefined && locationId !== null) {
    const [place] = await run<{ location_id: number; name: string }>(Prisma.sql`
      SELECT location_id, name FROM stock_locations
      WHERE organization_id = ${orgId} AND location_id = ${locationId}::int FOR SHARE`);
    if (!place) throw Errors.notFound('Stock location');
    to = place;
  } else if (locationId === null) to = { location_id: null, name: null };
  return { from: was, to, moved: to.location_id !== was.location_id };
}

/**
 * The movement row and the device.moved event of a device taken to another
 * place, as two CTE members (`wm`, `sm`) followed by a comma; empty when it
 * stays where it was.
 */
export function returnMoveSql(
  orgId: string,
  item: { item_id: number; serial_number: string },
  place: { from: Place; to: Place; moved: boolean },
  user: AuthUser,
  note: string,
): Prisma.Sql {
  if (!place.moved) return Prisma.empty;
  const { from, to } = place;
  const event = webhookEventsSql(orgId, 'device.moved', [
    {
      serial_number: item.serial_number,
      item_id: item.item_id,
      from_location_id: from.location_id,
      from_location: from.name,
      to_location_id: to.location_id,
      to_location: to.name,
      note,
      moved_by: user.username,
      moved_at: new Date().toISOString(),
    },
  ]);
  return Prisma.sql`wm AS (${event} RETURNING 1), sm AS (
    INSERT INTO stock_movements (organization_id, item_id, from_location_id, to_location_id, from_name, to_name, moved_by, note)
    VALUES (${orgId}, ${item.item_id}::int, ${from.location_id}::int, ${to.location_id}::int, ${from.name}, ${to.name},
            ${user.username}, ${note})
    RETURNING 1),`;
}
