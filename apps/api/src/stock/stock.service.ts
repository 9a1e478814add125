import { Injectable } from '@nestjs/common';
import {
  normalizeSerial,
  type StockCounts,
  type StockLocation,
  type StockLocationListReply,
  type StockLocationReply,
  type StockMovementsReply,
  type StockMoveReply,
  type StockProductCounts,
  type StockTakeDevice,
  type StockTakeReply,
  STOCK_TAKE_LIST_MAX,
  ZStockLocationInputSchema,
  ZStockLocationUpdateSchema,
  ZStockMovementsQuerySchema,
  ZStockMoveSchema,
  ZStockTakeSchema,
} from '@kidogo/contracts';
import type { z } from 'zod';
import { Prisma } from '../generated/prisma/client.js';
import { DatabaseService, type Run } from '../database/database.service.js';
import { Errors } from '../common/errors.js';
import { pagePagination } from '../common/pagination.js';
import { webhookEventsSql } from '../webhooks/webhook-events.js';
import type { AuthUser } from '../common/tenancy.js';

type LocationInput = z.output<typeof ZStockLocationInputSchema>;
type LocationUpdate = z.output<typeof ZStockLocationUpdateSchema>;
type MoveInput = z.output<typeof ZStockMoveSchema>;
type MovementsQuery = z.output<typeof ZStockMovementsQuerySchema>;
type TakeInput = z.output<typeof ZStockTakeSchema>;

interface TakeRow {
  serial_number: string;
  product_name: string;
  status: string;
  location_name: string | null;
  is_assigned: boolean;
}

const takeDevice = (r: TakeRow): StockTakeDevice => ({
  serial_number: r.serial_number,
  product_name: r.product_name,
  status: r.is_assigned ? 'assigned' : r.status,
  location_name: r.location_name,
  with_customer: r.is_assigned,
});
/** How many of the first serials an Activity Log entry keeps of each list. */
const AUDITED_SERIALS = 100;

interface LocationRow {
  location_id: number;
  name: string;
  description: string | null;
  created_at: Date;
}

interface TotalRow {
  location_id: number | null;
  product_name: string;
  is_assigned: boolean;
  status: string;
  n: number;
}

const zero = (): StockCounts => ({ available: 0, maintenance: 0, retired: 0, given_out: 0, in_stock: 0 });

/** Adds `n` devices of one total to counts. */
function add(c: StockCounts, t: TotalRow): void {
  if (t.is_assigned) c.given_out += t.n;
  else {
    if (t.status === 'available' || t.status === 'maintenance' || t.status === 'retired') c[t.status] += t.n;
    c.in_stock += t.n;
  }
}

/** One place's counts and its products' (most in stock first, then by name) from the totals. */
function countsOf(totals: TotalRow[]): { counts: StockCounts; products: StockProductCounts[] } {
  const counts = zero();
  const byProduct = new Map<string, StockProductCounts>();
  for (const t of totals) {
    add(counts, t);
    let p = byProduct.get(t.product_name);
    if (!p) byProduct.set(t.product_name, (p = { product_name: t.product_name, ...zero() }));
    add(p, t);
  }
  const products = [...byProduct.values()].sort((a, b) => b.in_stock - a.in_stock || a.product_name.localeCompare(b.product_name));
  return { counts, products };
}

const isUniqueViolation = (e: unknown) => (e as { code?: string }).code === '23505';
const nameTaken = (name: string) => Errors.conflict(`A stock location named ${name} already exists`);
const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
/** At most ten serials, then how many more. */
const listed = (serials: string[]) => (serials.length > 10 ? `${serials.slice(0, 10).join(', ')} and ${serials.length - 10} more` : serials.join(', '));

/**
 * Stock locations: the warehouses, shops and agents that hold the devices
 * (README "Stock locations"). Their counts come from item_stats (kept by
 * triggers, by location too), so the list reads no device rows. Every change
 * commits with its Activity Log entry; each device moved gets a movement row.
 */
@Injectable()
export class StockService {
  constructor(private readonly database: DatabaseService) {}

  async list(orgId: string): Promise<StockLocationListReply> {
    const [locations, totals] = await Promise.all([
      this.database.prepared<LocationRow>(Prisma.sql`
        SELECT location_id, name, description, created_at FROM stock_locations
        WHERE organization_id = ${orgId} ORDER BY lower(name), location_id`),
      this.totals(this.database.prepared, orgId, null),
    ]);
    const byPlace = new Map<number | null, TotalRow[]>();
    for (const t of totals) byPlace.set(t.location_id, [...(byPlace.get(t.location_id) ?? []), t]);
    return {
      data: locations.map((l) => this.toLocation(l, byPlace.get(l.location_id) ?? [])),
      unplaced: countsOf(byPlace.get(null) ?? []),
    };
  }

  async get(orgId: string, locationId: number): Promise<StockLocation> {
    const [row] = await this.database.prepared<LocationRow>(Prisma.sql`
      SELECT location_id, name, description, created_at FROM stock_locations
      WHERE organization_id = ${orgId} AND location_id = ${locationId}::int`);
    if (!row) throw Errors.notFound('Stock location');
    return this.toLocation(row, await this.totals(this.database.prepared, orgId, locationId));
  }

  async create(orgId: string, user: AuthUser, input: LocationInput): Promise<StockLocationReply> {
    const id = await this.database
      .transaction(async (run) => {
        const [row] = await run<{ location_id: number }>(Prisma.sql`
          INSERT INTO stock_locations (organization_id, name, description, updated_at)
          VALUES (${orgId}, ${input.name}, ${input.description ?? null}, now()) RETURNING location_id`);
        await this.audit(run, orgId, user, 'stock_location.created', row!.location_id, `Stock location ${input.name} added by ${user.username}`, {
          name: input.name,
          description: input.description ?? null,
        });
        return row!.location_id;
      })
      .catch((e: unknown) => {
        throw isUniqueViolation(e) ? nameTaken(input.name) : e;
      });
    return { message: `Stock location ${input.name} added`, location: await this.get(orgId, id) };
  }

  async update(orgId: string, user: AuthUser, locationId: number, input: LocationUpdate): Promise<StockLocationReply> {
    await this.database
      .transaction(async (run) => {
        const [before] = await run<LocationRow>(Prisma.sql`
          SELECT location_id, name, description, created_at FROM stock_locations
          WHERE organization_id = ${orgId} AND location_id = ${locationId}::int FOR UPDATE`);
        if (!before) throw Errors.notFound('Stock location');
        const name = input.name ?? before.name;
        const description = input.description === undefined ? before.description : input.description;
        if (name === before.name && description === before.description) return;
        await run(Prisma.sql`
          UPDATE stock_locations SET name = ${name}, description = ${description}, updated_at = now()
          WHERE organization_id = ${orgId} AND location_id = ${locationId}::int`);
        const what = name !== before.name ? `renamed ${before.name} → ${name}` : `${name}'s description changed`;
        await this.audit(run, orgId, user, 'stock_location.updated', locationId, `Stock location ${what} by ${user.username}`, {
          before: { name: before.name, description: before.description },
          after: { name, description },
        });
      })
      .catch((e: unknown) => {
        throw isUniqueViolation(e) ? nameTaken(input.name ?? '') : e;
      });
    return { message: 'Stock location saved', location: await this.get(orgId, locationId) };
  }

  /**
   * Refused while devices are in stock there (move them first). The devices
   * given out from it keep no place; their movements keep its name.
   */
  async remove(orgId: string, user: AuthUser, locationId: number): Promise<{ message: string }> {
    return this.database.transaction(async (run) => {
      // FOR UPDATE waits for moves into it (they hold it FOR SHARE), so the count below sees them.
      const [place] = await run<LocationRow>(Prisma.sql`
        SELECT location_id, name, description, created_at FROM stock_locations
        WHERE organization_id = ${orgId} AND location_id = ${locationId}::int FOR UPDATE`);
      if (!place) throw Errors.notFound('Stock location');
      const { counts } = countsOf(await this.totals(run, orgId, locationId));
      if (counts.in_stock > 0) {
        throw Errors.conflict(`${place.name} still holds ${plural(counts.in_stock, 'device')}: move them to another stock location first`);
      }
      const released = await run<{ item_id: number }>(Prisma.sql`
        UPDATE items SET location_id = NULL WHERE organization_id = ${orgId} AND location_id = ${locationId}::int RETURNING item_id`);
      await run(Prisma.sql`DELETE FROM stock_locations WHERE organization_id = ${orgId} AND location_id = ${locationId}::int`);
      await this.audit(run, orgId, user, 'stock_location.deleted', locationId, `Stock location ${place.name} deleted by ${user.username}`, {
        name: place.name,
        given_out_devices: released.length,
      });
      return { message: `Stock location ${place.name} deleted` };
    });
  }

  /**
   * Devices in stock to a place (or to none), all or none of them: an
   * unknown serial is a 400 naming them, a device with a customer a 409. A
   * device already there is left alone. Devices are locked in item order, so
   * two moves of the same devices wait for each other instead of deadlocking.
   */
  async move(orgId: string, user: AuthUser, input: MoveInput): Promise<StockMoveReply> {
    const wanted = new Map<string, string>();
    for (const s of input.serial_numbers) if (!wanted.has(normalizeSerial(s))) wanted.set(normalizeSerial(s), s);
    return this.database.transaction(async (run) => {
      let to: { location_id: number; name: string } | null = null;
      if (input.location_id !== null) {
        [to] = await run<{ location_id: number; name: string }>(Prisma.sql`
          SELECT location_id, name FROM stock_locations
          WHERE organization_id = ${orgId} AND location_id = ${input.location_id}::int FOR SHARE`);
        if (!to) throw Errors.notFound('Stock location');
      }
      const devices = await run<{
        item_id: number;
        serial_number: string;
        serial_normalized: string;
        is_assigned: boolean;
        location_id: number | null;
        location_name: string | null;
      }>(Prisma.sql`
        SELECT i.item_id, i.serial_number, i.serial_normalized, i.is_assigned, i.location_id, l.name AS location_name
        FROM items i LEFT JOIN stock_locations l ON l.organization_id = i.organization_id AND l.location_id = i.location_id
        WHERE i.organization_id = ${orgId} AND i.serial_normalized = ANY(${[...wanted.keys()]}::text[])
        ORDER BY i.item_id
        FOR UPDATE OF i`);
      const found = new Set(devices.map((d) => d.serial_normalized));
      const unknown = [...wanted].filter(([n]) => !found.has(n)).map(([, s]) => s);
      if (unknown.length) throw Errors.badRequest('serial_numbers', `no device with serial number ${listed(unknown)} in your organization`);
      const out = devices.filter((d) => d.is_assigned).map((d) => d.serial_number);
      if (out.length) {
        throw Errors.conflict(
          `${listed(out)} ${out.length === 1 ? 'is' : 'are'} with a customer: a device given out is not moved (take it back first)`,
        );
      }
      const target = to?.location_id ?? null;
      const moving = devices.filter((d) => d.location_id !== target);
      const where = to ? `to ${to.name}` : 'out of every stock location';
      if (moving.length) {
        const ids = moving.map((d) => d.item_id);
        await run(Prisma.sql`
          UPDATE items SET location_id = ${target}::int, updated_at = now()
          WHERE organization_id = ${orgId} AND item_id = ANY(${ids}::int[])`);
        await run(Prisma.sql`
          INSERT INTO stock_movements (organization_id, item_id, from_location_id, to_location_id, from_name, to_name, moved_by, note)
          SELECT ${orgId}, m.item_id, m.from_id, ${target}::int, m.from_name, ${to?.name ?? null}, ${user.username}, ${input.note ?? null}
          FROM unnest(${ids}::int[], ${moving.map((d) => d.location_id)}::int[], ${moving.map((d) => d.location_name)}::text[])
            AS m(item_id, from_id, from_name)`);
        const movedAt = new Date().toISOString();
        await run(
          webhookEventsSql(
            orgId,
            'device.moved',
            moving.map((d) => ({
              serial_number: d.serial_number,
              item_id: d.item_id,
              from_location_id: d.location_id,
              from_location: d.location_name,
              to_location_id: target,
              to_location: to?.name ?? null,
              note: input.note ?? null,
              moved_by: user.username,
              moved_at: movedAt,
            })),
          ),
        );
        const serials = moving.map((d) => d.serial_number);
        await this.audit(
          run,
          orgId,
          user,
          'stock.moved',
          target,
          `${plural(moving.length, 'device')} moved ${where} by ${user.username}: ${listed(serials)}`,
          { to_location_id: target, to_name: to?.name ?? null, serial_numbers: serials, note: input.note ?? null },
        );
      }
      const unchanged = devices.length - moving.length;
      const message =
        (moving.length ? `${plural(moving.length, 'device')} moved ${where}` : 'Nothing moved') +
        (unchanged ? `; ${plural(unchanged, 'device was', 'devices were')} already ${to ? 'there' : 'in none'}` : '');
      return { message, moved: moving.length, unchanged, location_id: target, location_name: to?.name ?? null };
    });
  }

  /**
   * A stock take: the serial numbers counted at a place against the devices
   * Kidogo has in stock there. What is missing (there in Kidogo, not counted),
   * what was counted but is elsewhere in Kidogo (another place, none, a
   * customer) and what no device is. It changes no device (Move to Location
   * puts right what staff decide to); it is kept in the Activity Log with its
   * figures. The missing devices are found with one anti-join of the place's
   * devices against the counted serials, so a warehouse of 100,000 devices is
   * one index range and one hash.
   */
  async stockTake(orgId: string, user: AuthUser, locationId: number, input: TakeInput): Promise<StockTakeReply> {
    const wanted = new Map<string, string>();
    for (const s of input.serial_numbers) if (!wanted.has(normalizeSerial(s))) wanted.set(normalizeSerial(s), s);
    const keys = [...wanted.keys()];
    return this.database.transaction(async (run) => {
      const [place] = await run<{ name: string }>(Prisma.sql`
        SELECT name FROM stock_locations WHERE organization_id = ${orgId} AND location_id = ${locationId}::int`);
      if (!place) throw Errors.notFound('Stock location');
      const counted = await run<TakeRow & { serial_normalized: string; location_id: number | null }>(Prisma.sql`
        SELECT i.serial_number, i.serial_normalized, i.product_name, i.status::text AS status, i.is_assigned, i.location_id, l.name AS location_name
        FROM items i LEFT JOIN stock_locations l ON l.organization_id = i.organization_id AND l.location_id = i.location_id
        WHERE i.organization_id = ${orgId} AND i.serial_normalized = ANY(${keys}::text[])
        ORDER BY i.serial_number`);
      const missing = await run<TakeRow & { total: number }>(Prisma.sql`
        SELECT i.serial_number, i.product_name, i.status::text AS status, false AS is_assigned, ${place.name} AS location_name,
               count(*) OVER ()::int AS total
        FROM items i
        WHERE i.organization_id = ${orgId} AND i.location_id = ${locationId}::int AND NOT i.is_assigned
          AND NOT EXISTS (SELECT 1 FROM unnest(${keys}::text[]) AS c(s) WHERE c.s = i.serial_normalized)
        ORDER BY i.serial_number
        LIMIT ${STOCK_TAKE_LIST_MAX}::int`);
      const here = (r: { location_id: number | null; is_assigned: boolean }) => r.location_id === locationId && !r.is_assigned;
      const found = counted.filter(here).length;
      const elsewhere = counted.filter((r) => !here(r));
      const known = new Set(counted.map((r) => r.serial_normalized));
      const unknown = [...wanted].filter(([n]) => !known.has(n)).map(([, s]) => s);
      const missingCount = missing[0]?.total ?? 0;
      const reply: StockTakeReply = {
        message:
          `Stock take at ${place.name}: ${plural(found, 'device')} of ${(found + missingCount).toLocaleString('en-US')} found` +
          (missingCount ? `, ${missingCount.toLocaleString('en-US')} missing` : ', none missing') +
          (elsewhere.length ? `, ${plural(elsewhere.length, 'device')} counted that Kidogo has elsewhere` : '') +
          (unknown.length ? `, ${plural(unknown.length, 'serial number')} of no device` : ''),
        location_id: locationId,
        location_name: place.name,
        expected: found + missingCount,
        counted: wanted.size,
        duplicates: input.serial_numbers.length - wanted.size,
        found,
        missing: missing.map(takeDevice),
        missing_count: missingCount,
        elsewhere: elsewhere.slice(0, STOCK_TAKE_LIST_MAX).map(takeDevice),
        elsewhere_count: elsewhere.length,
        unknown: unknown.slice(0, STOCK_TAKE_LIST_MAX),
        unknown_count: unknown.length,
      };
      await this.audit(run, orgId, user, 'stock.counted', locationId, `${reply.message}, by ${user.username}`, {
        expected: reply.expected,
        counted: reply.counted,
        found,
        missing_count: missingCount,
        missing: missing.slice(0, AUDITED_SERIALS).map((r) => r.serial_number),
        elsewhere_count: elsewhere.length,
        elsewhere: elsewhere.slice(0, AUDITED_SERIALS).map((r) => r.serial_number),
        unknown_count: unknown.length,
        unknown: unknown.slice(0, AUDITED_SERIALS),
        note: input.note ?? null,
      });
      return reply;
    });
  }

  /** Movements, newest first: the organization's, one device's or one place's (to or from it). */
  async movements(orgId: string, q: MovementsQuery): Promise<StockMovementsReply> {
    const where: Prisma.Sql[] = [Prisma.sql`m.organization_id = ${orgId}`];
    if (q.serial_number) {
      where.push(Prisma.sql`m.item_id IN (SELECT item_id FROM items WHERE organization_id = ${orgId} AND serial_normalized = ${normalizeSerial(q.serial_number)})`);
    }
    if (q.location_id !== undefined) where.push(Prisma.sql`(m.to_location_id = ${q.location_id}::int OR m.from_location_id = ${q.location_id}::int)`);
    const filter = Prisma.join(where, ' AND ');
    const offset = (q.page - 1) * q.limit;
    const [rows, [count]] = await Promise.all([
      this.database.query<{
        movement_id: string;
        serial_number: string;
        product_name: string;
        from_name: string | null;
        to_name: string | null;
        moved_by: string;
        note: string | null;
        moved_at: Date;
      }>(Prisma.sql`
        SELECT m.movement_id::text, i.serial_number, i.product_name, m.from_name, m.to_name, m.moved_by, m.note, m.moved_at
        FROM stock_movements m JOIN items i ON i.organization_id = m.organization_id AND i.item_id = m.item_id
        WHERE ${filter} ORDER BY m.moved_at DESC, m.movement_id DESC LIMIT ${q.limit}::int OFFSET ${offset}::int`),
      this.database.query<{ n: number }>(Prisma.sql`SELECT count(*)::int AS n FROM stock_movements m WHERE ${filter}`),
    ]);
    return {
      data: rows.map((r) => ({
        movement_id: Number(r.movement_id),
        serial_number: r.serial_number,
        product_name: r.product_name,
        from_location: r.from_name,
        to_location: r.to_name,
        moved_by: r.moved_by,
        note: r.note,
        moved_at: r.moved_at.toISOString(),
      })),
      pagination: pagePagination(count?.n ?? 0, q.page, q.limit),
    };
  }

  /** The organization's device totals by place (one place's when `locationId` is a number). */
  private totals(run: Run, orgId: string, locationId: number | null): Promise<TotalRow[]> {
    return run<TotalRow>(Prisma.sql`
      SELECT location_id, product_name, is_assigned, status::text AS status, sum(n)::int AS n FROM item_stats
      WHERE organization_id = ${orgId} ${locationId === null ? Prisma.empty : Prisma.sql`AND location_id = ${locationId}::int`}
      GROUP BY 1, 2, 3, 4 HAVING sum(n) <> 0`);
  }

  private toLocation(l: LocationRow, totals: TotalRow[]): StockLocation {
    return { location_id: l.location_id, name: l.name, description: l.description, created_at: l.created_at.toISOString(), ...countsOf(totals) };
  }

  private async audit(
    run: Run,
    orgId: string,
    user: AuthUser,
    action: string,
    locationId: number | null,
    description: string,
    metadata: Record<string, unknown>,
  ): Promise<void> {
    await run(Prisma.sql`
      INSERT INTO audit_logs (organization_id, actor_user_id, actor_username, action, entity_type, entity_id, description, metadata)
      VALUES (${orgId}, ${user.user_id}::int, ${user.username}, ${action}, 'stock_location', ${locationId === null ? null : String(locationId)},
              ${description}, ${JSON.stringify(metadata)}::jsonb)`);
  }
}
