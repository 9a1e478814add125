import { Injectable } from '@nestjs/common';
import {
  CASH_HANDOVERS_CSV_COLUMNS,
  CASH_OVERDUE_DAYS,
  type CashCollector,
  type CashCollectorsReply,
  type CashHandover,
  type CashHandoverReply,
  type CashLedgerReply,
  type CashSummary,
  type ZCashHandoverInputSchema,
  type ZCashHandoversExportQuerySchema,
  type ZCashLedgerQuerySchema,
  type ZCashVoidInputSchema,
} from '@kidogo/contracts';
import type { z } from 'zod';
import { Prisma } from '../generated/prisma/client.js';
import { DatabaseService, type Run } from '../database/database.service.js';
import { Errors } from '../common/errors.js';
import type { AuthUser } from '../common/tenancy.js';
import { Calendar } from '../common/calendar.js';
import { streamReply, type HttpReply } from '../common/http.js';
import { AuditService } from '../audit/audit.service.js';
import { streamCsv } from '../catalog/csv-write.js';
import { isoDayOf, periodSql, toPeriod } from '../metrics/period.js';

type HandoverInput = z.output<typeof ZCashHandoverInputSchema>;
type VoidInput = z.output<typeof ZCashVoidInputSchema>;
type LedgerQuery = z.output<typeof ZCashLedgerQuerySchema>;
type ExportQuery = z.output<typeof ZCashHandoversExportQuerySchema>;
const EXPORT_BATCH = 1_000;

const DAY_MS = 86_400_000;

/**
 * The cash payments a collector holds: cash payments recorded by hand as
 * collected by them (collected_by: named as the collector, else who recorded
 * it), not rejected (a payment reversed off the wrong device waits, pending,
 * but its cash was paid). Read from payments_cash_by_collector alone.
 */
const cashPayments = (orgId: string) => Prisma.sql`
  p.organization_id = ${orgId} AND p.payment_method = 'cash' AND p.source = 'manual' AND p.status <> 'failed'::"PaymentStatus"`;

interface CollectorRow {
  username: string;
  currency: string;
  role: string | null;
  is_active: boolean | null;
  collected: string;
  collected_count: number;
  handed_over: string;
  handover_count: number;
  in_hand: string;
  held_since: Date | null;
  last_collected_at: Date | null;
  last_handover_at: Date | null;
}

interface HandoverRow {
  handover_id: number;
  collector: string;
  amount: string;
  currency: string;
  handed_at: Date;
  received_by: string;
  reference: string | null;
  note: string | null;
  created_at: Date;
  voided_at: Date | null;
  voided_by: string | null;
  void_reason: string | null;
}

const HANDOVER_COLUMNS = Prisma.sql`handover_id, collector, amount::text AS amount, currency, handed_at, received_by, reference, note,
  created_at, voided_at, voided_by, void_reason`;

/** "KES 1,200.00" */
export const cashText = (currency: string, amount: string) =>
  `${currency} ${Number(amount).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** Cash paid before this is overdue for handing over: held more than CASH_OVERDUE_DAYS whole days at `now`. */
export const overdueBefore = (now: number) => new Date(now - (CASH_OVERDUE_DAYS + 1) * DAY_MS);

function toCollector(r: CollectorRow, now = Date.now()): CashCollector {
  const held = Number(r.in_hand) > 0 && r.held_since ? r.held_since : null;
  const days = held ? Math.max(0, Math.floor((now - held.getTime()) / DAY_MS)) : null;
  return {
    username: r.username,
    role: r.role,
    is_active: r.is_active,
    currency: r.currency,
    collected: r.collected,
    collected_count: r.collected_count,
    handed_over: r.handed_over,
    handover_count: r.handover_count,
    in_hand: r.in_hand,
    held_since: iso(held),
    days_held: days,
    overdue: held !== null && held <= overdueBefore(now),
    last_collected_at: iso(r.last_collected_at),
    last_handover_at: iso(r.last_handover_at),
  };
}

function toHandover(r: HandoverRow): CashHandover {
  return {
    handover_id: r.handover_id,
    collector: r.collector,
    amount: r.amount,
    currency: r.currency,
    handed_at: r.handed_at.toISOString(),
    received_by: r.received_by,
    reference: r.reference,
    note: r.note,
    created_at: r.created_at.toISOString(),
    voided_at: iso(r.voided_at),
    voided_by: r.voided_by,
    void_reason: r.void_reason,
  };
}

/**
 * Each collector's cash by currency: collected (the kept totals), handed over (not voided),
 * in hand, and since when the oldest cash still held was paid: the handovers
 * pay off the oldest cash first, so what is held is the newest cash, and it
 * was held since the payment at which the total counted back from the newest
 * reaches what is in hand (read newest first, stopping there: the cash held,
 * not the collector's whole history).
 */
export function collectorsSql(orgId: string, username: string | null): Prisma.Sql {
  const onlyPaid = username === null ? Prisma.empty : Prisma.sql`AND t.username = ${username}`;
  const onlyHanded = username === null ? Prisma.empty : Prisma.sql`AND h.collector = ${username}`;
  // What each collected: kept by triggers on payments (0082_cash_collector_totals), one row per collector and currency.
  return Prisma.sql`
    WITH paid AS (
      SELECT t.username, t.currency, t.collected, t.collected_count AS n, t.last_collected_at AS last_at
      FROM cash_collector_totals t WHERE t.organization_id = ${orgId} AND t.collected_count > 0 ${onlyPaid}
    ), handed AS (
      SELECT h.collector AS username, h.currency, sum(h.amount) AS handed, count(*)::int AS n, max(h.handed_at) AS last_at
      FROM cash_handovers h WHERE h.organization_id = ${orgId} AND h.voided_at IS NULL ${onlyHanded}
      GROUP BY 1, 2
    ), b AS (
      SELECT coalesce(p.username, h.username) AS username, coalesce(p.currency, h.currency) AS currency,
             coalesce(p.collected, 0) AS collected, coalesce(p.n, 0) AS collected_count,
             coalesce(h.handed, 0) AS handed, coalesce(h.n, 0) AS handover_count,
             p.last_at AS last_collected_at, h.last_at AS last_handover_at
      FROM paid p FULL JOIN handed h ON h.username = p.username AND h.currency = p.currency
    )
    SELECT b.username, b.currency, u.role::text AS role, u.is_active,
           b.collected::numeric(14,2)::text AS collected, b.collected_count,
           b.handed::numeric(14,2)::text AS handed_over, b.handover_count,
           (b.collected - b.handed)::numeric(14,2)::text AS in_hand,
           b.last_collected_at, b.last_handover_at,
           CASE WHEN b.collected > b.handed THEN (
             SELECT x.paid_at FROM (
               SELECT p.paid_at, sum(p.amount) OVER (ORDER BY p.paid_at DESC) AS since
               FROM payments p WHERE ${cashPayments(orgId)} AND p.collected_by = b.username AND p.currency = b.currency
               ORDER BY p.paid_at DESC
             ) x WHERE x.since >= b.collected - b.handed LIMIT 1)
           END AS held_since
    FROM b LEFT JOIN users u ON u.username = b.username AND u.organization_id = ${orgId}
    ORDER BY (b.collected - b.handed) DESC, b.username, b.currency`;
}

/** Cash in hand (README "Cash in hand"): what each collector holds, their handovers, and each one's ledger. */
@Injectable()
export class CashService {
  constructor(
    private readonly database: DatabaseService,
    private readonly calendar: Calendar,
    private readonly audit: AuditService,
  ) {}

  /** Every collector's cash, the most held first; staff see only their own. */
  async summary(orgId: string, user: AuthUser): Promise<CashSummary> {
    const only = user.role === 'staff' ? user.username : null;
    const rows = await this.database.query<CollectorRow>(collectorsSql(orgId, only));
    const now = Date.now();
    const data = rows.map((r) => toCollector(r, now));
    const totals = new Map<string, { collected: number; handed: number }>();
    for (const r of rows) {
      const t = totals.get(r.currency) ?? { collected: 0, handed: 0 };
      // Sums in cents: whole numbers stay exact.
      t.collected += Math.round(Number(r.collected) * 100);
      t.handed += Math.round(Number(r.handed_over) * 100);
      totals.set(r.currency, t);
    }
    return {
      data,
      totals: [...totals].map(([currency, t]) => ({
        currency,
        collected: (t.collected / 100).toFixed(2),
        handed_over: (t.handed / 100).toFixed(2),
        in_hand: ((t.collected - t.handed) / 100).toFixed(2),
      })),
      overdue_days: CASH_OVERDUE_DAYS,
    };
  }

  /** A collector's cash payments and handovers, newest first, each with what they held after it. */
  async ledger(orgId: string, user: AuthUser, username: string, q: LedgerQuery): Promise<CashLedgerReply> {
    if (user.role === 'staff' && user.username !== username) throw Errors.forbidden('Staff see only their own cash');
    const balances = (await this.database.query<CollectorRow>(collectorsSql(orgId, username))).map((r) => toCollector(r));
    if (balances.length === 0) throw Errors.notFound(`Cash collected by ${username}`);
    const currency = q.currency ? Prisma.sql`AND currency = ${q.currency}` : Prisma.empty;
    const rows = await this.database.query<{
      kind: 'payment' | 'handover';
      id: number;
      at: Date;
      currency: string;
      amount: string;
      in_hand_after: string;
      total: number;
      serial_number: string | null;
      item_id: number | null;
      customer_id: number | null;
      customer_name: string | null;
      payment_status: string | null;
      recorded_by: string | null;
      reference: string | null;
      received_by: string | null;
      note: string | null;
      voided_at: Date | null;
      voided_by: string | null;
      void_reason: string | null;
    }>(Prisma.sql`
      WITH e AS (
        SELECT 'payment' AS kind, 0 AS k, p.payment_id AS id, p.paid_at AS at, p.currency, p.amount, p.amount AS delta
        FROM payments p WHERE ${cashPayments(orgId)} AND p.collected_by = ${username}
        UNION ALL
        SELECT 'handover', 1, h.handover_id, h.handed_at, h.currency, -h.amount, CASE WHEN h.voided_at IS NULL THEN -h.amount ELSE 0 END
        FROM cash_handovers h WHERE h.organization_id = ${orgId} AND h.collector = ${username}
      ), r AS (
        SELECT e.*, sum(delta) OVER (PARTITION BY currency ORDER BY at, k, id) AS after, count(*) OVER () AS total
        FROM e WHERE true ${currency}
        ORDER BY at DESC, k DESC, id DESC
        LIMIT ${q.limit}::int OFFSET ${(q.page - 1) * q.limit}::int
      )
      SELECT r.kind, r.id, r.at, r.currency, r.amount::numeric(14,2)::text AS amount, r.after::numeric(14,2)::text AS in_hand_after,
             r.total::int AS total, i.serial_number, p.item_id, p.customer_id, c.customer_name, p.status::text AS payment_status,
             CASE WHEN p.recorded_by IS DISTINCT FROM p.collected_by THEN p.recorded_by END AS recorded_by,
             coalesce(p.transaction_code, p.reference, h.reference) AS reference, h.received_by, h.note,
             h.voided_at, h.voided_by, h.void_reason
      FROM r
      LEFT JOIN payments p ON r.kind = 'payment' AND p.organization_id = ${orgId} AND p.payment_id = r.id
      LEFT JOIN items i ON i.organization_id = ${orgId} AND i.item_id = p.item_id
      LEFT JOIN customers c ON c.organization_id = ${orgId} AND c.customer_id = p.customer_id
      LEFT JOIN cash_handovers h ON r.kind = 'handover' AND h.organization_id = ${orgId} AND h.handover_id = r.id
      ORDER BY r.at DESC, r.k DESC, r.id DESC`);
    let total = rows[0]?.total;
    if (total === undefined) {
      // A page past the end: the count alone.
      const [n] = await this.database.query<{ n: number }>(Prisma.sql`
        SELECT ((SELECT count(*) FROM payments p WHERE ${cashPayments(orgId)} AND p.collected_by = ${username} ${q.currency ? Prisma.sql`AND p.currency = ${q.currency}` : Prisma.empty})
              + (SELECT count(*) FROM cash_handovers h WHERE h.organization_id = ${orgId} AND h.collector = ${username} ${q.currency ? Prisma.sql`AND h.currency = ${q.currency}` : Prisma.empty}))::int AS n`);
      total = n?.n ?? 0;
    }
    return {
      username,
      balances,
      data: rows.map((r) => ({
        kind: r.kind,
        id: r.id,
        at: r.at.toISOString(),
        currency: r.currency,
        amount: r.amount,
        in_hand_after: r.in_hand_after,
        serial_number: r.serial_number,
        item_id: r.item_id,
        customer_id: r.customer_id,
        customer_name: r.customer_name,
        payment_status: r.payment_status,
        recorded_by: r.recorded_by,
        reference: r.reference,
        received_by: r.received_by,
        note: r.note,
        voided_at: iso(r.voided_at),
        voided_by: r.voided_by,
        void_reason: r.void_reason,
      })),
      pagination: { total, total_pages: Math.ceil(total / q.limit), page: q.page, limit: q.limit },
    };
  }

  /**
   * Records cash a collector handed over. One collector's handovers are
   * recorded one at a time (an advisory lock), so two at once cannot both
   * take the same cash; more than they hold is refused.
   */
  handover(orgId: string, user: AuthUser, input: HandoverInput): Promise<CashHandoverReply> {
    return this.database.transaction(async (run) => {
      await run(Prisma.sql`SELECT pg_advisory_xact_lock(hashtext(${`cash:${orgId}:${input.collector}`}))`);
      const held = (await run<CollectorRow>(collectorsSql(orgId, input.collector))).map((r) => toCollector(r));
      if (held.length === 0) {
        const [known] = await run<{ n: number }>(Prisma.sql`
          SELECT count(*)::int AS n FROM users WHERE organization_id = ${orgId} AND username = ${input.collector}`);
        if (!known?.n) throw Errors.badRequest('collector', `nobody called ${input.collector} has collected cash in this organization`);
      }
      const holding = held.filter((c) => Number(c.in_hand) > 0);
      let currency = input.currency;
      if (!currency) {
        if (holding.length > 1) {
          throw Errors.badRequest('currency', `is required: ${input.collector} holds ${holding.map((c) => c.currency).join(' and ')}`);
        }
        currency = holding[0]?.currency ?? held[0]?.currency;
      }
      const mine = held.find((c) => c.currency === currency);
      const inHand = mine?.in_hand ?? '0.00';
      if (!currency || Number(inHand) <= 0) {
        throw Errors.badRequest('amount', `${input.collector} holds no cash${currency ? ` in ${currency}` : ''} to hand over`);
      }
      if (Math.round(input.amount * 100) > Math.round(Number(inHand) * 100)) {
        throw Errors.badRequest('amount', `must be at most ${inHand}: ${input.collector} holds ${cashText(currency, inHand)}`);
      }
      const amount = input.amount.toFixed(2);
      const [row] = await run<HandoverRow>(Prisma.sql`
        WITH h AS (
          INSERT INTO cash_handovers (organization_id, collector, amount, currency, handed_at, received_by, reference, note)
          VALUES (${orgId}, ${input.collector}, ${amount}::numeric, ${currency}, coalesce(${input.handed_at ?? null}::timestamptz, now()),
                  ${user.username}, ${input.reference ?? null}, ${input.note ?? null})
          RETURNING *
        ), a AS (
          INSERT INTO audit_logs (organization_id, actor_user_id, actor_username, action, entity_type, entity_id, description, metadata)
          SELECT ${orgId}, ${user.user_id}::int, ${user.username}, 'cash.handover_recorded', 'cash_handover', h.handover_id::text,
                 ${`Received ${cashText(currency, amount)} in cash from ${input.collector}`},
                 jsonb_build_object('handover_id', h.handover_id, 'collector', h.collector, 'amount', h.amount::text, 'currency', h.currency,
                                    'handed_at', h.handed_at, 'reference', h.reference, 'in_hand_before', ${inHand}::text)
          FROM h RETURNING 1
        )
        SELECT ${HANDOVER_COLUMNS} FROM h`);
      const after = await this.collectorIn(run, orgId, input.collector, currency);
      return {
        message: `Recorded ${cashText(currency, amount)} handed over by ${input.collector}: they hold ${cashText(currency, after.in_hand)} now`,
        handover: toHandover(row!),
        collector: after,
      };
    });
  }

  /** A handover recorded by mistake: kept, marked void with why, and its cash counts as held again. */
  voidHandover(orgId: string, user: AuthUser, handoverId: number, input: VoidInput): Promise<CashHandoverReply> {
    return this.database.transaction(async (run) => {
      const [found] = await run<HandoverRow>(Prisma.sql`
        SELECT ${HANDOVER_COLUMNS} FROM cash_handovers WHERE organization_id = ${orgId} AND handover_id = ${handoverId}::int FOR UPDATE`);
      if (!found) throw Errors.notFound('Cash handover');
      if (found.voided_at) throw Errors.conflict(`This handover was voided already by ${found.voided_by}: ${found.void_reason}`);
      const what = cashText(found.currency, found.amount);
      const [row] = await run<HandoverRow>(Prisma.sql`
        WITH h AS (
          UPDATE cash_handovers SET voided_at = now(), voided_by = ${user.username}, void_reason = ${input.reason}
          WHERE organization_id = ${orgId} AND handover_id = ${handoverId}::int
          RETURNING *
        ), a AS (
          INSERT INTO audit_logs (organization_id, actor_user_id, actor_username, action, entity_type, entity_id, description, metadata)
          SELECT ${orgId}, ${user.user_id}::int, ${user.username}, 'cash.handover_voided', 'cash_handover', h.handover_id::text,
                 ${`Voided the handover of ${what} by ${found.collector}: ${input.reason}`},
                 jsonb_build_object('handover_id', h.handover_id, 'collector', h.collector, 'amount', h.amount::text,
                                    'currency', h.currency, 'reason', h.void_reason)
          FROM h RETURNING 1
        )
        SELECT ${HANDOVER_COLUMNS} FROM h`);
      const after = await this.collectorIn(run, orgId, found.collector, found.currency);
      return {
        message: `Voided the handover of ${what} by ${found.collector}: they hold ${cashText(found.currency, after.in_hand)} now`,
        handover: toHandover(row!),
        collector: after,
      };
    });
  }

  /**
   * The handovers of a period (of one collector), newest first, as CSV: what the bank's deposits are matched
   * against. Read in batches from the last one's place. The export is itself recorded.
   */
  async exportHandovers(orgId: string, q: ExportQuery, reply: HttpReply, actor: AuthUser): Promise<void> {
    const period = toPeriod(q.from, q.to, this.calendar);
    if (q.collector && !(await this.isCollector(orgId, q.collector))) {
      throw Errors.badRequest('collector', `nobody called ${q.collector} has collected cash in this organization`);
    }
    const where = Prisma.sql`organization_id = ${orgId} ${periodSql(Prisma.sql`handed_at`, period)}
      ${q.collector ? Prisma.sql`AND collector = ${q.collector}` : Prisma.empty}`;
    const read = (after: HandoverRow | null) =>
      this.database.query<HandoverRow>(Prisma.sql`
        SELECT ${HANDOVER_COLUMNS} FROM cash_handovers WHERE ${where}
        ${after ? Prisma.sql`AND (handed_at, handover_id) < (${after.handed_at.toISOString()}::timestamptz, ${after.handover_id}::int)` : Prisma.empty}
        ORDER BY handed_at DESC, handover_id DESC LIMIT ${EXPORT_BATCH}::int`);
    const res = streamReply(reply, 'text/csv; charset=utf-8', `cash-handovers-${isoDayOf(this.calendar.today())}.csv`);
    const { count, complete } = await streamCsv(res, CASH_HANDOVERS_CSV_COLUMNS, EXPORT_BATCH, read, (h) => [
      h.handover_id,
      h.handed_at,
      h.collector,
      h.amount,
      h.currency,
      h.received_by,
      h.reference,
      h.note,
      h.created_at,
      h.voided_at,
      h.voided_by,
      h.void_reason,
    ]);
    this.audit.recordQuietly({
      organizationId: orgId,
      actor,
      action: 'cash.handovers_exported',
      entityType: 'cash_handover',
      description: `Exported ${count} cash handovers${q.collector ? ` of ${q.collector}` : ''} to CSV`,
      metadata: { count, from: q.from ?? null, to: q.to ?? null, collector: q.collector ?? null, complete },
    });
  }

  /** Whom a cash payment can be recorded as collected by: the organization's active users, by name. */
  async collectorsList(orgId: string): Promise<CashCollectorsReply> {
    const data = await this.database.query<{ username: string; role: string }>(Prisma.sql`
      SELECT username, role::text AS role FROM users WHERE organization_id = ${orgId} AND is_active ORDER BY username`);
    return { data };
  }

  /** A user of the organization, or someone who recorded cash or handed it over in it (a user since deleted). */
  private async isCollector(orgId: string, username: string): Promise<boolean> {
    const [row] = await this.database.query<{ known: boolean }>(Prisma.sql`
      SELECT EXISTS (SELECT 1 FROM users WHERE organization_id = ${orgId} AND username = ${username})
          OR EXISTS (SELECT 1 FROM cash_handovers h WHERE h.organization_id = ${orgId} AND h.collector = ${username})
          OR EXISTS (SELECT 1 FROM payments p WHERE ${cashPayments(orgId)} AND p.collected_by = ${username}) AS known`);
    return row?.known === true;
  }

  /** One collector's cash in one currency, read in the transaction that changed it. */
  private async collectorIn(run: Run, orgId: string, username: string, currency: string): Promise<CashCollector> {
    const rows = await run<CollectorRow>(collectorsSql(orgId, username));
    const row = rows.find((r) => r.currency === currency);
    if (!row) throw new Error(`No cash of ${username} in ${currency} after a handover`);
    return toCollector(row);
  }
}
