import { Injectable } from '@nestjs/common';
import {
  normalizeSerial,
  ZItemListQuerySchema,
  type CreditCheck,
  type ItemTransferReply,
  ZItemSearchSchema,
  type Item,
  type ItemInputParsed,
  type ItemListReply,
  type ItemUpdateParsed,
} from '@kidogo/contracts';
import type { z } from 'zod';
import type { ZItemTransferSchema } from '@kidogo/contracts';
import { DatabaseService, type Run, type ScopedClient } from '../database/database.service.js';
import { AuditService, type AuditEntry } from '../audit/audit.service.js';
import { DeviceSecrets } from '../devices/device-secrets.js';
import { ERASED_CUSTOMER, Errors } from '../common/errors.js';
import { offsetPagination } from '../common/pagination.js';
import type { AuthUser } from '../common/tenancy.js';
import { Prisma } from '../generated/prisma/client.js';
import { textMatch } from '../catalog/search.js';
import { MATCHES_COLUMN, pageBounds, searchPage } from '../common/list-counts.js';
import { itemTotals } from '../stats/totals.js';
import { accountClosedEntry, FRESH_ACCOUNT, type DeviceAccount } from './device-account.js';
import { fromRaw, ITEM_COLUMNS, ITEM_JOINS, ITEM_SELECT, NEW_DEVICE_TOKEN_COUNT, toItem, toItemCreate, type ItemRawRow } from './items.mapper.js';
import { webhookEventSql } from '../webhooks/webhook-events.js';
import { readCreditCheck, refusalDetail } from './credit-check.js';

type ListQuery = z.output<typeof ZItemListQuerySchema>;
type SearchQuery = z.output<typeof ZItemSearchSchema>;
/** How an assignment may go against the follow-on sales rule: an owner's or admin's reason (override_reason). */
export interface AssignOptions {
  overrideReason?: string | null;
}

/** The transaction client of the scoped (organization-checked) database. */
export type Tx = Parameters<Parameters<ScopedClient['$transaction']>[0]>[0];

interface LockedItem extends DeviceAccount {
  id: number;
  serial_number: string;
  status: string;
  is_assigned: boolean;
  customer_id: number | null;
  token_count: number;
}

const asAuditTx = (tx: Tx) => tx as unknown as Prisma.TransactionClient;
/** The 400 of a device naming a stock location the organization does not have. */
export const unknownLocation = (name: string) => `no stock location named ${name}: add it in Stock Locations first`;

const isUniqueViolation = (e: unknown) => e instanceof Prisma.PrismaClientKnownRequestError && e.code === 'P2002';
const duplicateSerial = (serial: string, existing?: string) =>
  Errors.conflict(
    existing && existing !== serial
      ? `A device with serial number ${existing} already exists (${serial} is the same serial written differently)`
      : `A device with serial number ${serial} already exists`,
  );

/**
 * When the customer's account on this device began, for a device given back
 * to them (unassigned by mistake, or repossessed and returned once the
 * arrears were paid): the first of their assignments of it since it was last
 * someone else's or swapped away, and for an account a swap brought to the
 * device, where it began on the device it was swapped from; for an account
 * taken over from another customer (a transfer), where it began with them. Null when they
 * never had it. Walks a device's assignments (a few) and swaps.
 */
async function accountStart(tx: Tx, orgId: string, itemId: number, customerId: number, before?: Date): Promise<Date | null> {
  const rows = await tx.itemAssignment.findMany({
    where: { organization_id: orgId, item_id: itemId, ...(before ? { assigned_at: { lte: before } } : {}) },
    orderBy: [{ assigned_at: 'desc' }, { id: 'desc' }],
    select: { customer_id: true, assigned_at: true, swapped_from_item_id: true, transferred_from_customer_id: true },
    take: 500,
  });
  const outs = await tx.deviceSwap.findMany({ where: { organization_id: orgId, old_item_id: itemId }, select: { swapped_at: true } });
  let start: Date | null = null;
  let holder = customerId;
  for (const [i, r] of rows.entries()) {
    if (r.customer_id !== holder) break;
    // Swapped away after this assignment: the account left with the swap, and what followed was another one.
    const next = i > 0 ? rows[i - 1]!.assigned_at : null;
    if (next && outs.some((o) => o.swapped_at >= r.assigned_at && o.swapped_at <= next)) break;
    start = r.assigned_at;
    // Taken over from another customer (an account transfer): the account began with them.
    if (r.transferred_from_customer_id !== null) holder = r.transferred_from_customer_id;
    if (r.swapped_from_item_id !== null) {
      return (await accountStart(tx, orgId, r.swapped_from_item_id, customerId, r.assigned_at)) ?? start;
    }
  }
  return start;
}

/** The activity log's entry of a device given, or an account transferred, against the follow-on sales rule. */
function againstRuleEntry(
  orgId: string,
  actor: AuthUser,
  serial: string,
  customerId: number,
  description: string,
  override: { check: CreditCheck; reason: string },
): AuditEntry {
  return {
    organizationId: orgId,
    actor,
    action: 'item.assigned_against_rule',
    entityType: 'item',
    entityId: serial,
    description,
    metadata: {
      customer_id: customerId,
      reason: override.reason,
      refused_because: override.check.reasons,
      rule: override.check.rule,
      standing: override.check.repayment.standing,
      repaid_share: override.check.repayment.repaid_share,
      repossessions: override.check.repossessions,
    },
  };
}

@Injectable()
export class ItemsService {
  constructor(
    private readonly database: DatabaseService,
    private readonly audit: AuditService,
    private readonly secrets: DeviceSecrets,
  ) {}

  async add(orgId: string, input: ItemInputParsed): Promise<Item> {
    const normalized = normalizeSerial(input.serial_number);
    const clash = await this.database.db.item.findFirst({
      where: { organization_id: orgId, serial_normalized: normalized },
      select: { serial_number: true },
    });
    if (clash) throw duplicateSerial(input.serial_number, clash.serial_number);
    let locationId: number | null = null;
    if (input.location) {
      locationId = (await this.locationIds(orgId)).get(input.location.toLowerCase()) ?? null;
      if (locationId === null) throw Errors.badRequest('location', unknownLocation(input.location));
    }
    const secret = this.secrets.create({ secret_key: input.secret_key, starting_code: input.starting_code });
    try {
      const row = await this.database.db.item.create({
        data: { ...toItemCreate(orgId, input, locationId), ...this.secrets.seal(secret) },
        select: ITEM_SELECT,
      });
      return toItem(row);
    } catch (e) {
      if (isUniqueViolation(e)) throw duplicateSerial(input.serial_number);
      throw e;
    }
  }

  /**
   * One batch of the bulk file: devices whose serial (in its normal form)
   * is already in the organization or earlier in the file are skipped;
   * the rest get their sealed factory data and are inserted together.
   */
  /** The organization's stock locations by name in lower case (a device names its place; the file checks each row's). */
  async locationIds(orgId: string): Promise<Map<string, number>> {
    const rows = await this.database.db.stockLocation.findMany({ where: { organization_id: orgId }, select: { id: true, name: true } });
    return new Map(rows.map((r) => [r.name.toLowerCase(), r.id]));
  }

  async insertBatch(orgId: string, rows: ItemInputParsed[], seen: Set<string>, locations = new Map<string, number>()): Promise<number> {
    const candidates = rows.map((r) => ({ row: r, normalized: normalizeSerial(r.serial_number) }));
    const existing = await this.database.db.item.findMany({
      where: { organization_id: orgId, serial_normalized: { in: candidates.map((c) => c.normalized) } },
      select: { serial_normalized: true },
    });
    for (const e of existing) seen.add(e.serial_normalized);
    const fresh: Prisma.ItemCreateManyInput[] = [];
    for (const c of candidates) {
      if (seen.has(c.normalized)) continue;
      seen.add(c.normalized);
      const secret = this.secrets.create({ secret_key: c.row.secret_key, starting_code: c.row.starting_code });
      const locationId = c.row.location ? (locations.get(c.row.location.toLowerCase()) ?? null) : null;
      fresh.push({ ...toItemCreate(orgId, c.row, locationId), ...this.secrets.seal(secret) });
    }
    if (!fresh.length) return 0;
    // One INSERT, one array per column; the unique key skips serials inserted meanwhile.
    const col = (k: keyof Prisma.ItemCreateManyInput) => fresh.map((d) => (d[k] ?? null) as string | null);
    return this.database.db.$executeRaw`
      INSERT INTO items (organization_id, serial_number, serial_normalized, product_name, product_type, manufacturer,
        model, description, price, status, product_oem, secret_key_enc, starting_code_enc, token_count, location_id)
      SELECT ${orgId}::varchar, sn, sn_norm, name, ptype, maker, model, descr, price, status::"ItemStatus", oem, key_enc, code_enc, count, place
      FROM unnest(
        ${col('serial_number')}::text[], ${col('serial_normalized')}::text[], ${col('product_name')}::text[],
        ${col('product_type')}::text[], ${col('manufacturer')}::text[], ${col('model')}::text[], ${col('description')}::text[],
        ${fresh.map((d) => String(d.price ?? 0))}::numeric[], ${col('status')}::text[], ${col('product_oem')}::text[],
        ${col('secret_key_enc')}::text[], ${col('starting_code_enc')}::text[], ${fresh.map((d) => d.token_count ?? NEW_DEVICE_TOKEN_COUNT)}::int[],
        ${fresh.map((d) => d.location_id ?? null)}::int[]
      ) AS r(sn, sn_norm, name, ptype, maker, model, descr, price, status, oem, key_enc, code_enc, count, place)
      ON CONFLICT (organization_id, serial_number) DO NOTHING`;
  }

  /** Newest first; serial_number is a partial match, product_oem exact (both case-insensitive). */
  async list(orgId: string, q: ListQuery): Promise<ItemListReply> {
    const search: Prisma.Sql[] = [];
    if (q.serial_number) search.push(textMatch(['serial_number'], q.serial_number));
    if (q.product_oem) search.push(textMatch(['product_oem'], q.product_oem, true));
    return this.page(orgId, { search, key: JSON.stringify(['items', q.serial_number ?? '', q.product_oem ?? '']) }, q.limit, q.offset);
  }

  /** Serial number, product name or manufacturer contains the query (case-insensitive). */
  async search(orgId: string, q: SearchQuery): Promise<ItemListReply> {
    const search = q.query ? [textMatch(['serial_number', 'product_name', 'manufacturer'], q.query)] : [];
    return this.page(orgId, { search, assigned: q.is_assigned ?? null, key: JSON.stringify(['search', q.query ?? '']) }, q.limit, q.offset);
  }

  /**
   * A page of devices, newest first, in raw SQL (see DatabaseService.query).
   * Without a search the total comes from item_stats (exact, kept by
   * triggers) instead of counting the organization's devices; with one,
   * the page and its total come from searchPage (a deep page from the kept
   * place of a match before it).
   */
  async page(
    orgId: string,
    f: { search: Prisma.Sql[]; assigned?: boolean | null; location?: number | 'none'; key: string },
    limit: number,
    offset: number,
  ): Promise<ItemListReply> {
    // Without a search every statement is keyed: prepared. A search is planned for its pattern (searchPage).
    const { runs } = this.database;
    const assigned = f.assigned === undefined || f.assigned === null ? null : f.assigned;
    const where = Prisma.join(
      [
        Prisma.sql`i.organization_id = ${orgId}`,
        ...(assigned === null ? [] : [Prisma.sql`i.is_assigned = ${assigned}::boolean`]),
        ...(f.location === undefined ? [] : [f.location === 'none' ? Prisma.sql`i.location_id IS NULL` : Prisma.sql`i.location_id = ${f.location}::int`]),
        ...f.search,
      ],
      ' AND ',
    );
    const from = Prisma.sql`FROM items i ${ITEM_JOINS} WHERE ${where}`;
    const order = Prisma.sql`ORDER BY i.created_at DESC, i.item_id DESC ${pageBounds(limit, offset)}`;
    if (f.search.length) {
      const { rows, total } = await searchPage<ItemRawRow>(runs, orgId, 'items', JSON.stringify([assigned, f.location ?? null, f.key]), offset, {
        count: Prisma.sql`SELECT count(*)::int AS total FROM items i WHERE ${where}`,
        // From a kept place when deep (see searchPage), in the (organization_id, created_at DESC, item_id DESC) index.
        page: (_kept, { anchor, skip }) => Prisma.sql`SELECT ${ITEM_COLUMNS} ${from}
          ${anchor ? Prisma.sql`AND (i.created_at, i.item_id) <= (${anchor.time}::timestamptz, ${anchor.id}::int)` : Prisma.empty}
          ORDER BY i.created_at DESC, i.item_id DESC ${pageBounds(limit, skip)}`,
        countedPage: Prisma.sql`SELECT ${ITEM_COLUMNS}, count(*) OVER ()::int AS ${Prisma.raw(MATCHES_COLUMN)} ${from} ${order}`,
        anchors: Prisma.sql`SELECT i.created_at AS t, i.item_id AS id FROM items i WHERE ${where}`,
      });
      return { data: rows.map(fromRaw).map(toItem), pagination: offsetPagination(total, limit, offset) };
    }
    // The total and the page in one round trip; a page past the total is not read (a one-time filter).
    const rows = await runs.prepared<ItemRawRow & { list_total: number }>(Prisma.sql`
      WITH t AS (
        SELECT coalesce(sum(n), 0)::int AS list_total FROM ${itemTotals(orgId, f.location)} s
        WHERE ${assigned === null ? Prisma.sql`true` : Prisma.sql`is_assigned = ${assigned}::boolean`}
      )
      SELECT t.list_total, p.* FROM t
      LEFT JOIN LATERAL (SELECT ${ITEM_COLUMNS} ${from} AND ${offset}::int < t.list_total ${order}) p ON true`);
    const total = rows[0]?.list_total ?? 0;
    const page = rows.filter((r) => r.id !== null).map(({ list_total: _t, ...r }) => r as ItemRawRow);
    return { data: page.map(fromRaw).map(toItem), pagination: offsetPagination(total, limit, offset) };
  }

  /** The device with this serial, also when written with another case, spaces or dashes. */
  async fetch(orgId: string, serial: string): Promise<Item> {
    const db = this.database.db.item;
    const row =
      (await db.findUnique({
        where: { organization_id_serial_number: { organization_id: orgId, serial_number: serial } },
        select: ITEM_SELECT,
      })) ??
      (await db.findFirst({
        where: { organization_id: orgId, serial_normalized: normalizeSerial(serial) },
        select: ITEM_SELECT,
      }));
    if (!row) throw Errors.notFound('Device');
    return toItem(row);
  }

  /** Locks the device row for the rest of the transaction. */
  private async lock(tx: Tx, orgId: string, serial: string): Promise<LockedItem> {
    const rows = await tx.$queryRaw<LockedItem[]>`
      SELECT item_id AS id, serial_number, status::text AS status, is_assigned, customer_id, token_count,
             total_paid, credit, activated_at, paid_off_at, credit_until
      FROM items
      WHERE organization_id = ${orgId} AND (serial_number = ${serial} OR serial_normalized = ${normalizeSerial(serial)})
      ORDER BY (serial_number = ${serial}) DESC
      LIMIT 1
      FOR UPDATE`;
    if (!rows.length) throw Errors.notFound('Device');
    return rows[0];
  }

  async update(orgId: string, serial: string, input: ItemUpdateParsed, actor: AuthUser): Promise<Item> {
    return this.database.db.$transaction(async (tx) => {
      const item = await this.lock(tx, orgId, serial);
      const { organization_id: _ignored, ...fields } = input;
      const data: Prisma.ItemUpdateInput = {};
      for (const [k, v] of Object.entries(fields)) if (v !== undefined) (data as Record<string, unknown>)[k] = v;
      if (input.status && input.status !== item.status) {
        if (input.status === 'assigned' && !item.is_assigned) {
          throw Errors.badRequest('status', 'a device becomes assigned by assigning it to a customer (POST /items/assign)');
        }
        if ((input.status === 'available' || input.status === 'retired') && item.is_assigned) {
          throw Errors.conflict(`Device ${item.serial_number} is assigned to a customer; unassign it before making it ${input.status}`);
        }
      }
      const row = await tx.item.update({
        where: { organization_id_id: { organization_id: orgId, id: item.id } },
        data,
        select: ITEM_SELECT,
      });
      if (input.status && input.status !== item.status) {
        await this.audit.record(
          {
            organizationId: orgId,
            actor,
            action: 'item.status_changed',
            entityType: 'item',
            entityId: item.serial_number,
            description: `Device ${item.serial_number}: status ${item.status} → ${input.status}`,
            metadata: { from: item.status, to: input.status },
          },
          asAuditTx(tx),
        );
      }
      return toItem(row);
    });
  }

  /**
   * Refused while the device is assigned, or once it has payments or tokens
   * (retire it instead: its history must stay). Its ended assignment
   * history goes with it.
   */
  async remove(orgId: string, serial: string, actor: AuthUser): Promise<{ message: string }> {
    return this.database.db.$transaction(async (tx) => {
      const item = await this.lock(tx, orgId, serial);
      if (item.is_assigned) {
        const owner = item.customer_id
          ? await tx.customer.findUnique({
              where: { organization_id_id: { organization_id: orgId, id: item.customer_id } },
              select: { customer_name: true },
            })
          : null;
        throw Errors.conflict(
          `Device ${item.serial_number} is assigned to ${owner ? `customer ${owner.customer_name}` : 'a customer'}; unassign it first`,
        );
      }
      const [payments, tokens] = await Promise.all([
        tx.payment.count({ where: { organization_id: orgId, item_id: item.id } }),
        tx.tokenLog.count({ where: { organization_id: orgId, item_id: item.id } }),
      ]);
      if (payments || tokens) {
        throw Errors.conflict(
          `Device ${item.serial_number} has ${payments} payment(s) and ${tokens} token(s); set its status to retired instead of deleting it`,
        );
      }
      // A write-off is in the books too.
      if (await tx.repossession.count({ where: { organization_id: orgId, item_id: item.id } })) {
        throw Errors.conflict(`Device ${item.serial_number} was repossessed and its write-off is in the books; set its status to retired instead of deleting it`);
      }
      // A swap names both devices: the customer's account moved from one to the other.
      if (await tx.deviceSwap.count({ where: { organization_id: orgId, OR: [{ old_item_id: item.id }, { new_item_id: item.id }] } })) {
        throw Errors.conflict(`Device ${item.serial_number} was part of a device swap, kept in the customer's history; set its status to retired instead of deleting it`);
      }
      await tx.itemAssignment.deleteMany({ where: { organization_id: orgId, item_id: item.id } });
      await tx.item.delete({ where: { organization_id_id: { organization_id: orgId, id: item.id } } });
      await this.audit.record(
        {
          organizationId: orgId,
          actor,
          action: 'item.deleted',
          entityType: 'item',
          entityId: item.serial_number,
          description: `Deleted device ${item.serial_number}`,
        },
        asAuditTx(tx),
      );
      return { message: `Device ${item.serial_number} deleted` };
    });
  }

  async assign(orgId: string, customerId: number, serial: string, actor: AuthUser, opts: AssignOptions = {}) {
    return this.database.db.$transaction((tx) => this.assignInTx(tx, orgId, customerId, serial, actor, opts));
  }

  /**
   * Every assignment of a device goes through here (POST /items/assign and
   * onboarding), inside the caller's transaction, with the device row locked
   * so that two assignments of one device cannot both succeed. The same
   * customer again changes nothing.
   *
   * A device that goes to another customer than its last holder starts a new
   * account (see device-account.ts): the last holder's money stays in their
   * payments, not on the device the next customer pays for. Its last holder
   * again (unassigned by mistake) keeps the account. The last holder, not the
   * last payment, says whose account it is: the account is reset at every
   * change of holder and payments only reach assigned devices, so it is the
   * last holder's by construction, also when it holds days or an activation
   * from tokens issued by hand and no payment.
   *
   * A new account for the customer is a sale on credit, checked against the
   * organization's follow-on sales rule (credit-check.ts): refused (409,
   * nothing changed) unless an owner or admin gives it anyway with a reason,
   * which the activity log keeps. A device given back to its last holder is no
   * sale and is not checked.
   */
  async assignInTx(tx: Tx, orgId: string, customerId: number, serial: string, actor: AuthUser, opts: AssignOptions = {}) {
    const customer = await tx.customer.findUnique({
      where: { organization_id_id: { organization_id: orgId, id: customerId } },
      select: { id: true, customer_name: true, status: true },
    });
    if (!customer) throw Errors.notFound('Customer');
    if (customer.status === 'erased') throw Errors.conflict(ERASED_CUSTOMER);
    const item = await this.lock(tx, orgId, serial);
    const where = { organization_id_id: { organization_id: orgId, id: item.id } };
    if (item.is_assigned && item.customer_id === customerId) {
      const row = await tx.item.findUniqueOrThrow({ where, select: ITEM_SELECT });
      return { message: `Device ${item.serial_number} is already assigned to ${customer.customer_name}`, changed: false, item: toItem(row) };
    }
    if (item.is_assigned) throw Errors.conflict(`Device ${item.serial_number} is already assigned to another customer`);
    if (item.status === 'retired') throw Errors.conflict(`Device ${item.serial_number} is retired and cannot be assigned`);
    if (item.status === 'maintenance') {
      throw Errors.conflict(`Device ${item.serial_number} is under maintenance; make it available before assigning it`);
    }
    const last = await tx.itemAssignment.findFirst({
      where: { organization_id: orgId, item_id: item.id },
      orderBy: [{ assigned_at: 'desc' }, { id: 'desc' }],
      select: { customer_id: true, assigned_at: true },
    });
    const holderId = last?.customer_id ?? null;
    // Swapped out, the device's account went to the replacement: given back to the same customer, it starts another.
    const swappedOut =
      last !== null &&
      holderId === customerId &&
      (await tx.deviceSwap.count({ where: { organization_id: orgId, old_item_id: item.id, swapped_at: { gte: last.assigned_at } } })) > 0;
    const newAccount = holderId !== customerId || swappedOut;
    const override = newAccount ? await this.checkCredit(tx, orgId, customerId, actor, opts.overrideReason ?? null) : null;
    // The account carries on from the day it began: what its plan expects by today does not start again.
    const startedAt = newAccount ? new Date() : ((await accountStart(tx, orgId, item.id, customerId)) ?? new Date());
    const row = await tx.item.update({
      where,
      data: { is_assigned: true, status: 'assigned', assigned_at: startedAt, customer_id: customerId, ...(newAccount ? FRESH_ACCOUNT : {}) },
      select: ITEM_SELECT,
    });
    await tx.itemAssignment.create({
      data: { organization_id: orgId, item_id: item.id, customer_id: customerId, assigned_by: actor.username },
    });
    // A plan of the device's own is part of its account: the next customer's devices follow their own plan.
    if (newAccount) {
      await tx.templateAssignment.updateMany({
        where: { organization_id: orgId, item_id: item.id, is_active: true },
        data: { is_active: false, ended_at: new Date() },
      });
    }
    await this.audit.record(
      {
        organizationId: orgId,
        actor,
        action: 'item.assigned',
        entityType: 'item',
        entityId: item.serial_number,
        description: `Assigned device ${item.serial_number} to ${customer.customer_name}`,
        metadata: { customer_id: customerId },
      },
      asAuditTx(tx),
    );
    if (override) {
      const why = `Gave device ${item.serial_number} to ${customer.customer_name} against the follow-on sales rule: ${override.reason}`;
      await this.audit.record(againstRuleEntry(orgId, actor, item.serial_number, customerId, why, override), asAuditTx(tx));
    }
    const closed = newAccount ? accountClosedEntry(orgId, actor, item, holderId, customer) : null;
    if (closed) await this.audit.record(closed, asAuditTx(tx));
    await tx.$executeRaw(
      webhookEventSql(orgId, 'device.assigned', {
        serial_number: item.serial_number,
        item_id: item.id,
        customer_id: customerId,
        customer_name: customer.customer_name,
        new_account: newAccount,
        assigned_at: row.assigned_at?.toISOString() ?? null,
        assigned_by: actor.username,
        // Given although the follow-on sales rule refuses the customer: the owner's or admin's reason.
        override_reason: override?.reason ?? null,
      }),
    );
    return { message: `Device ${item.serial_number} assigned to ${customer.customer_name}`, changed: true, item: toItem(row) };
  }

  /**
   * The follow-on sales rule for a new account of the customer: nothing when
   * the rule lets them through; refused without an owner's or admin's reason;
   * the check and the reason when it is given anyway.
   */
  private async checkCredit(tx: Tx, orgId: string, customerId: number, actor: AuthUser, reason: string | null) {
    const run: Run = (sql) => tx.$queryRaw(sql);
    const check = await readCreditCheck(run, orgId, customerId);
    if (!check || check.allowed) return null;
    if (reason === null) throw Errors.conflict(refusalDetail(check));
    if (actor.role === 'staff') {
      throw Errors.forbidden('override_reason: only an owner or admin can give a device against the follow-on sales rule');
    }
    return { check, reason };
  }

  async unassign(orgId: string, serial: string, actor: AuthUser) {
    return this.database.db.$transaction(async (tx) => {
      const item = await this.lock(tx, orgId, serial);
      if (!item.is_assigned) throw Errors.conflict(`Device ${item.serial_number} is not assigned to a customer`);
      const now = new Date();
      const row = await tx.item.update({
        where: { organization_id_id: { organization_id: orgId, id: item.id } },
        data: {
          is_assigned: false,
          customer_id: null,
          assigned_at: null,
          status: item.status === 'assigned' ? 'available' : undefined,
        },
        select: ITEM_SELECT,
      });
      await tx.itemAssignment.updateMany({
        where: { organization_id: orgId, item_id: item.id, unassigned_at: null },
        data: { unassigned_at: now },
      });
      await this.audit.record(
        {
          organizationId: orgId,
          actor,
          action: 'item.unassigned',
          entityType: 'item',
          entityId: item.serial_number,
          description: `Unassigned device ${item.serial_number}`,
          metadata: { customer_id: item.customer_id },
        },
        asAuditTx(tx),
      );
      await tx.$executeRaw(
        webhookEventSql(orgId, 'device.unassigned', {
          serial_number: item.serial_number,
          item_id: item.id,
          customer_id: item.customer_id,
          status: row.status,
          unassigned_at: now.toISOString(),
          unassigned_by: actor.username,
        }),
      );
      return { message: `Device ${item.serial_number} unassigned`, item: toItem(row) };
    });
  }

  /**
   * POST /items/transfer: the device's account passes to another customer,
   * who takes over its payments (README "Account transfers"). The device row
   * is locked; its account (total paid, credit, free days, discount,
   * activation, payoff, credit date, the day it began) and token count stay
   * as they are. The previous holder's assignment is closed and the new
   * holder's row says whose account it continues, what had been paid on it
   * and why. The plan the device was paid on goes with it as the device's
   * own plan of the new holder: its own plan moves to them, or their
   * customer plan is given to the device. An account not paid off is credit
   * the new holder takes on: checked against the follow-on sales rule, like
   * Assign.
   */
  async transfer(orgId: string, input: z.output<typeof ZItemTransferSchema>, actor: AuthUser): Promise<ItemTransferReply> {
    return this.database.db.$transaction(async (tx) => {
      const item = await this.lock(tx, orgId, input.item_serial_number);
      if (!item.is_assigned || item.customer_id === null) {
        throw Errors.conflict(`Device ${item.serial_number} is not assigned to a customer: there is no account to transfer`);
      }
      if (item.customer_id === input.customer_id) {
        throw Errors.conflict(`Device ${item.serial_number} is already this customer's`);
      }
      const [from, to] = await Promise.all(
        [item.customer_id, input.customer_id].map((id) =>
          tx.customer.findUnique({
            where: { organization_id_id: { organization_id: orgId, id } },
            select: { id: true, customer_name: true, status: true },
          }),
        ),
      );
      if (!to) throw Errors.notFound('Customer');
      if (to.status === 'erased') throw Errors.conflict(ERASED_CUSTOMER);
      const override = item.paid_off_at === null ? await this.checkCredit(tx, orgId, to.id, actor, input.override_reason ?? null) : null;
      const now = new Date();
      const where = { organization_id_id: { organization_id: orgId, id: item.id } };
      // The plan it was paid on: its own, else its holder's (devicePlanJoin's rule).
      const [own, holders] = await Promise.all([
        tx.templateAssignment.findFirst({ where: { organization_id: orgId, item_id: item.id, is_active: true }, select: { id: true, template_id: true } }),
        tx.templateAssignment.findFirst({
          where: { organization_id: orgId, customer_id: item.customer_id, item_id: null, is_active: true },
          select: { template_id: true },
        }),
      ]);
      if (own) {
        await tx.templateAssignment.update({ where: { organization_id_id: { organization_id: orgId, id: own.id } }, data: { customer_id: to.id } });
      } else if (holders) {
        await tx.templateAssignment.create({
          data: {
            organization_id: orgId,
            customer_id: to.id,
            template_id: holders.template_id,
            item_id: item.id,
            assigned_by: actor.username,
            notes: `Transferred with device ${item.serial_number}'s account from ${from?.customer_name ?? `customer ${item.customer_id}`}`,
          },
        });
      }
      const templateId = own?.template_id ?? holders?.template_id ?? null;
      const template =
        templateId === null
          ? null
          : await tx.paymentTemplate.findUnique({ where: { organization_id_id: { organization_id: orgId, id: templateId } }, select: { template_name: true } });
      const row = await tx.item.update({ where, data: { customer_id: to.id }, select: ITEM_SELECT });
      await tx.itemAssignment.updateMany({ where: { organization_id: orgId, item_id: item.id, unassigned_at: null }, data: { unassigned_at: now } });
      await tx.itemAssignment.create({
        data: {
          organization_id: orgId,
          item_id: item.id,
          customer_id: to.id,
          assigned_by: actor.username,
          assigned_at: now,
          transferred_from_customer_id: item.customer_id,
          transferred_paid: item.total_paid,
          transfer_reason: input.reason,
        },
      });
      const paid = item.total_paid.toFixed(2);
      const fromName = from?.customer_name ?? `customer ${item.customer_id}`;
      await this.audit.record(
        {
          organizationId: orgId,
          actor,
          action: 'item.account_transferred',
          entityType: 'item',
          entityId: item.serial_number,
          description: `Transferred device ${item.serial_number}'s account from ${fromName} to ${to.customer_name} (total paid ${paid}): ${input.reason}`,
          metadata: {
            from_customer_id: item.customer_id,
            to_customer_id: to.id,
            reason: input.reason,
            total_paid: paid,
            credit_until: item.credit_until?.toISOString() ?? null,
            paid_off: item.paid_off_at !== null,
            template_id: templateId,
            token_count: item.token_count,
          },
        },
        asAuditTx(tx),
      );
      if (override) {
        const why = `Transferred device ${item.serial_number} to ${to.customer_name} against the follow-on sales rule: ${override.reason}`;
        await this.audit.record(againstRuleEntry(orgId, actor, item.serial_number, to.id, why, override), asAuditTx(tx));
      }
      await tx.$executeRaw(
        webhookEventSql(orgId, 'device.transferred', {
          serial_number: item.serial_number,
          item_id: item.id,
          from_customer_id: item.customer_id,
          to_customer_id: to.id,
          to_customer_name: to.customer_name,
          reason: input.reason,
          total_paid: paid,
          credit_until: item.credit_until?.toISOString() ?? null,
          paid_off: item.paid_off_at !== null,
          template_id: templateId,
          transferred_at: now.toISOString(),
          transferred_by: actor.username,
          override_reason: override?.reason ?? null,
        }),
      );
      return {
        message: `Device ${item.serial_number}'s account transferred from ${fromName} to ${to.customer_name}`,
        from: { customer_id: item.customer_id, customer_name: fromName },
        to: { customer_id: to.id, customer_name: to.customer_name },
        paid_before: paid,
        template_id: templateId,
        template_name: template?.template_name ?? null,
        item: toItem(row),
      };
    });
  }

}
