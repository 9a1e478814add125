import { Injectable } from '@nestjs/common';
import {
  COMMISSIONS_CSV_COLUMNS,
  NO_AGENT,
  type CommissionAgent,
  type CommissionMonth,
  type CommissionPayAllReply,
  type CommissionPayout,
  type CommissionPayoutList,
  type CommissionPayoutReply,
  type ZCommissionPayAllInputSchema,
  type ZCommissionPayoutInputSchema,
  type ZCommissionPayoutsQuerySchema,
  type ZCommissionVoidInputSchema,
} from '@kidogo/contracts';
import type { z } from 'zod';
import { Prisma } from '../generated/prisma/client.js';
import { DatabaseService, type Run } from '../database/database.service.js';
import { Errors } from '../common/errors.js';
import type { AuthUser } from '../common/tenancy.js';
import { Calendar, dayNumber } from '../common/calendar.js';
import { streamReply, type HttpReply } from '../common/http.js';
import { AuditService } from '../audit/audit.service.js';
import { streamCsv } from '../catalog/csv-write.js';
import { isoDayOf, type Period } from '../metrics/period.js';
import { webhookEventSql, webhookEventsSql } from '../webhooks/webhook-events.js';
import { MetricSnapshots, REPORT_KEY_PREFIX } from '../metrics/metric-snapshots.js';
import { commissionSql, devicesGivenByAgentSql, paymentsByAgentSql } from './commissions.js';

type PayoutInput = z.output<typeof ZCommissionPayoutInputSchema>;
type PayAllInput = z.output<typeof ZCommissionPayAllInputSchema>;
type VoidInput = z.output<typeof ZCommissionVoidInputSchema>;
type PayoutsQuery = z.output<typeof ZCommissionPayoutsQuerySchema>;

/** One agent's month as reckoned now (the Agent report's figures for it). */
interface EarnedRow {
  agent: string;
  devices_given: number;
  payments: number;
  revenue: string;
  commission: string;
}

interface PayoutRow {
  payout_id: number;
  agent: string;
  month: string;
  devices_given: number;
  payments: number;
  revenue: string;
  per_device: string;
  percent: string;
  amount: string;
  reference: string | null;
  note: string | null;
  paid_by: string;
  paid_at: Date;
  voided_at: Date | null;
  voided_by: string | null;
  void_reason: string | null;
}

const PAYOUT_COLUMNS = Prisma.sql`payout_id, agent, to_char(month, 'YYYY-MM') AS month, devices_given, payments, revenue::text AS revenue,
  per_device::text AS per_device, percent::text AS percent, amount::text AS amount, reference, note, paid_by, paid_at, voided_at,
  voided_by, void_reason`;

/** How old a month's reckoning may be served when it was slow to work out (MetricSnapshots keeps only slow ones). */
const RECKONED_MAX_AGE_S = 60;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function toPayout(r: PayoutRow): CommissionPayout {
  return {
    ...r,
    paid_at: r.paid_at.toISOString(),
    voided_at: iso(r.voided_at),
  };
}

/** "1,250.00" */
const amountText = (v: string) => Number(v).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** Adds two-decimal amounts in cents, so that sums of many stay exact. */
const cents = (v: string) => Math.round(Number(v) * 100);
const fromCents = (c: number) => (c / 100).toFixed(2);

/** "November 2026" */
const monthName = (month: string) =>
  new Date(`${month}-01T00:00:00Z`).toLocaleString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });

/**
 * A month's payouts lock: taken shared by each agent's payout (they go side by side), alone by paying every agent
 * at once, so that an agent is never in both.
 */
const monthLock = (orgId: string, month: string, shared: boolean) =>
  Prisma.sql`SELECT ${Prisma.raw(shared ? 'pg_advisory_xact_lock_shared' : 'pg_advisory_xact_lock')}(hashtext(${`commission-month:${orgId}:${month}`}))`;

/** The commission.paid webhook event of an agent's month paid, with what it was reckoned from. */
const paidEvent = (e: EarnedRow & { per_device: string; percent: string }, month: string, reference: string | undefined, user: AuthUser) => ({
  agent: e.agent,
  month,
  amount: e.commission,
  devices_given: e.devices_given,
  payments: e.payments,
  revenue: e.revenue,
  per_device: e.per_device,
  percent: e.percent,
  reference: reference ?? null,
  paid_by: user.username,
});

/** The month after "YYYY-MM", as "YYYY-MM". */
function nextMonth(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
}

/**
 * Agent commission payouts (README "Agent commissions"): each agent's
 * commission for a month, reckoned as the Agent report does for that month,
 * and the payouts recorded for it. A payout freezes the amount reckoned when
 * it is recorded, with what it was reckoned from; the month's page then shows
 * any difference a late change made (a payment reversed, one recorded late).
 */
@Injectable()
export class CommissionPayoutsService {
  constructor(
    private readonly database: DatabaseService,
    private readonly calendar: Calendar,
    private readonly audit: AuditService,
    private readonly snapshots: MetricSnapshots,
  ) {}

  /** The month's business days: from its first day's start to the next month's, in the installation's time zone. */
  private period(month: string): Period {
    return { from: this.calendar.startOf(dayNumber(`${month}-01`)), until: this.calendar.startOf(dayNumber(`${nextMonth(month)}-01`)) };
  }

  /**
   * What each agent earned in the month, reckoned now with the settings now:
   * the agents whose customers were given devices or paid in it, or only
   * `agent`'s. Customers without an agent earn nobody a commission.
   */
  private earned(run: Run, orgId: string, period: Period, agent?: string): Promise<(EarnedRow & { per_device: string; percent: string })[]> {
    return run(Prisma.sql`
      WITH dg AS (${devicesGivenByAgentSql(orgId, period, agent)}), pm AS (${paymentsByAgentSql(orgId, period, agent)}),
      agents AS (SELECT agent FROM dg UNION SELECT agent FROM pm)
      SELECT a.agent, coalesce(dg.n, 0) AS devices_given, coalesce(pm.n, 0) AS payments,
             coalesce(pm.revenue, 0)::numeric(20,2)::text AS revenue,
             ${commissionSql(
               Prisma.sql`k.commission_per_device`,
               Prisma.sql`k.commission_percent`,
               Prisma.sql`coalesce(dg.n, 0)`,
               Prisma.sql`coalesce(pm.revenue, 0)`,
             )}::numeric(20,2)::text AS commission,
             k.commission_per_device::text AS per_device, k.commission_percent::text AS percent
      FROM agents a
      CROSS JOIN (SELECT commission_per_device, commission_percent FROM organizations WHERE organization_id = ${orgId}) k
      LEFT JOIN dg ON dg.agent = a.agent LEFT JOIN pm ON pm.agent = a.agent
      WHERE a.agent <> ${NO_AGENT}`);
  }

  /** Every agent's commission for the month, whether it was paid, and the month's voided payouts. */
  async month(orgId: string, month: string): Promise<CommissionMonth> {
    const period = this.period(month);
    // A large organization's month takes a second or more to reckon (every payment of the month joined to its
    // customer): kept a minute, so the page comes back at once after Mark Paid. The payouts are read each time.
    const [{ value: earned, computedAt }, payouts, [rates]] = await Promise.all([
      this.snapshots.get(orgId, `${REPORT_KEY_PREFIX}commissions.${month}`, () => this.earned(this.database.readQuery, orgId, period), RECKONED_MAX_AGE_S, {
        waitWhenOld: true,
      }),
      this.database.query<PayoutRow>(Prisma.sql`
        SELECT ${PAYOUT_COLUMNS} FROM commission_payouts
        WHERE organization_id = ${orgId} AND month = ${`${month}-01`}::date ORDER BY payout_id DESC`),
      this.database.query<{ per_device: string; percent: string }>(Prisma.sql`
        SELECT commission_per_device::text AS per_device, commission_percent::text AS percent FROM organizations WHERE organization_id = ${orgId}`),
    ]);
    const standing = new Map(payouts.filter((p) => !p.voided_at).map((p) => [p.agent, p]));
    const byAgent = new Map(earned.map((e) => [e.agent, e]));
    for (const agent of standing.keys()) {
      if (!byAgent.has(agent)) byAgent.set(agent, { agent, devices_given: 0, payments: 0, revenue: '0.00', commission: '0.00', per_device: '', percent: '' });
    }
    const data: CommissionAgent[] = [...byAgent.values()].map((e) => {
      const paid = standing.get(e.agent);
      const difference = paid ? cents(e.commission) - cents(paid.amount) : 0;
      return {
        agent: e.agent,
        devices_given: e.devices_given,
        payments: e.payments,
        revenue: e.revenue,
        commission: e.commission,
        status: paid ? 'paid' : cents(e.commission) > 0 ? 'unpaid' : 'nothing_due',
        payout: paid ? toPayout(paid) : null,
        difference: paid && difference !== 0 ? fromCents(difference) : null,
      };
    });
    data.sort((a, b) => cents(b.commission) - cents(a.commission) || (a.agent < b.agent ? -1 : a.agent > b.agent ? 1 : 0));
    const unpaid = data.filter((a) => a.status === 'unpaid');
    const paid = data.filter((a) => a.payout);
    return {
      month,
      from: period.from!.toISOString(),
      until: period.until!.toISOString(),
      closed: period.until!.getTime() <= Date.now(),
      reckoned_at: computedAt.toISOString(),
      per_device: rates?.per_device ?? '0.00',
      percent: rates?.percent ?? '0.00',
      data,
      totals: {
        commission: fromCents(data.reduce((s, a) => s + cents(a.commission), 0)),
        paid: fromCents(paid.reduce((s, a) => s + cents(a.payout!.amount), 0)),
        unpaid: fromCents(unpaid.reduce((s, a) => s + cents(a.commission), 0)),
        paid_count: paid.length,
        unpaid_count: unpaid.length,
      },
      voided: payouts.filter((p) => p.voided_at).map(toPayout),
    };
  }

  /**
   * Records an agent's commission for a month that is over as paid: the
   * amount reckoned now, frozen. One agent's month is recorded one at a time
   * (an advisory lock; the partial unique index backs it), so it is never
   * paid twice.
   */
  pay(orgId: string, user: AuthUser, input: PayoutInput): Promise<CommissionPayoutReply> {
    const period = this.closedPeriod(input.month);
    const name = monthName(input.month);
    return this.database.transaction(async (run) => {
      // Agents are paid one by one side by side (the month's lock shared), never while every agent is being paid.
      await run(monthLock(orgId, input.month, true));
      await run(Prisma.sql`SELECT pg_advisory_xact_lock(hashtext(${`commission:${orgId}:${input.agent}:${input.month}`}))`);
      const [already] = await run<PayoutRow>(Prisma.sql`
        SELECT ${PAYOUT_COLUMNS} FROM commission_payouts
        WHERE organization_id = ${orgId} AND agent = ${input.agent} AND month = ${`${input.month}-01`}::date AND voided_at IS NULL`);
      if (already) {
        throw Errors.conflict(
          `${input.agent}'s commission for ${name} was already paid: ${amountText(already.amount)} on ${already.paid_at.toISOString().slice(0, 10)} by ${already.paid_by}`,
        );
      }
      const [e] = await this.earned(run, orgId, period, input.agent);
      if (!e) throw Errors.badRequest('agent', `no customer of ${input.agent} was given a device or paid in ${name}`);
      if (cents(e.commission) <= 0) throw Errors.conflict(`Nothing to pay: ${input.agent} earned no commission in ${name}`);
      const description = `Paid ${input.agent} a commission of ${amountText(e.commission)} for ${name}${input.reference ? ` (${input.reference})` : ''}`;
      const [row] = await run<PayoutRow>(Prisma.sql`
        WITH p AS (
          INSERT INTO commission_payouts (organization_id, agent, month, devices_given, payments, revenue, per_device, percent, amount,
                                          reference, note, paid_by)
          VALUES (${orgId}, ${input.agent}, ${`${input.month}-01`}::date, ${e.devices_given}::int, ${e.payments}::int, ${e.revenue}::numeric,
                  ${e.per_device}::numeric, ${e.percent}::numeric, ${e.commission}::numeric, ${input.reference ?? null}, ${input.note ?? null},
                  ${user.username})
          RETURNING *
        ), a AS (
          INSERT INTO audit_logs (organization_id, actor_user_id, actor_username, action, entity_type, entity_id, description, metadata)
          SELECT ${orgId}, ${user.user_id}::int, ${user.username}, 'commission.paid', 'commission_payout', p.payout_id::text, ${description},
                 jsonb_build_object('payout_id', p.payout_id, 'agent', p.agent, 'month', ${input.month}::text, 'amount', p.amount::text,
                                    'devices_given', p.devices_given, 'revenue', p.revenue::text, 'reference', p.reference)
          FROM p RETURNING 1
        ), w AS (
          ${webhookEventSql(orgId, 'commission.paid', paidEvent(e, input.month, input.reference, user), 'p')}
          RETURNING 1
        )
        SELECT ${PAYOUT_COLUMNS} FROM p`);
      return { message: `${description}.`, payout: toPayout(row!) };
    });
  }

  /** The month's days, once it is over; a 409 before (its commissions are not all earned yet). */
  private closedPeriod(month: string): Period {
    const period = this.period(month);
    if (period.until!.getTime() > Date.now()) {
      throw Errors.conflict(`${monthName(month)} is not over yet: its commissions can be paid from ${isoDayOf(dayNumber(`${nextMonth(month)}-01`))}`);
    }
    return period;
  }

  /**
   * Records every agent still owed for a month that is over as paid, at once (a bank's bulk transfer, a batch of
   * M-Pesa payments): each a payout of its own, its amount reckoned now and frozen, with the one reference. `total`
   * is what the owner confirmed was owed: when the month reckoned now owes another total, nothing is recorded. The
   * month's lock is held alone, so no agent of it is paid one by one meanwhile.
   */
  payAll(orgId: string, user: AuthUser, input: PayAllInput): Promise<CommissionPayAllReply> {
    const period = this.closedPeriod(input.month);
    const name = monthName(input.month);
    const month = `${input.month}-01`;
    return this.database.transaction(async (run) => {
      await run(monthLock(orgId, input.month, false));
      const earned = await this.earned(run, orgId, period);
      const paid = await run<{ agent: string }>(Prisma.sql`
        SELECT agent FROM commission_payouts WHERE organization_id = ${orgId} AND month = ${month}::date AND voided_at IS NULL`);
      const standing = new Set(paid.map((p) => p.agent));
      const owed = earned
        .filter((e) => !standing.has(e.agent) && cents(e.commission) > 0)
        .sort((a, b) => cents(b.commission) - cents(a.commission) || (a.agent < b.agent ? -1 : 1));
      if (!owed.length) throw Errors.conflict(`Nothing to pay: no agent is owed a commission for ${name}`);
      const total = owed.reduce((sum, e) => sum + cents(e.commission), 0);
      if (total !== Math.round(input.total * 100)) {
        throw Errors.conflict(
          `The commissions owed for ${name} changed since you looked: ${owed.length} agent${owed.length === 1 ? '' : 's'} are owed ` +
            `${amountText(fromCents(total))} now, not ${amountText(input.total.toFixed(2))}. Look at the month again before paying.`,
        );
      }
      const descriptions = owed.map(
        (e) => `Paid ${e.agent} a commission of ${amountText(e.commission)} for ${name}${input.reference ? ` (${input.reference})` : ''}, with every agent owed`,
      );
      const rows = await run<PayoutRow>(Prisma.sql`
        WITH v AS (
          SELECT * FROM unnest(${owed.map((e) => e.agent)}::text[], ${owed.map((e) => e.devices_given)}::int[], ${owed.map((e) => e.payments)}::int[],
                               ${owed.map((e) => e.revenue)}::numeric[], ${owed.map((e) => e.per_device)}::numeric[], ${owed.map((e) => e.percent)}::numeric[],
                               ${owed.map((e) => e.commission)}::numeric[], ${descriptions}::text[])
            AS v(agent, devices_given, payments, revenue, per_device, percent, amount, description)
        ), p AS (
          INSERT INTO commission_payouts (organization_id, agent, month, devices_given, payments, revenue, per_device, percent, amount,
                                          reference, note, paid_by)
          SELECT ${orgId}, v.agent, ${month}::date, v.devices_given, v.payments, v.revenue, v.per_device, v.percent, v.amount,
                 ${input.reference ?? null}, ${input.note ?? null}, ${user.username}
          FROM v
          RETURNING *
        ), a AS (
          INSERT INTO audit_logs (organization_id, actor_user_id, actor_username, action, entity_type, entity_id, description, metadata)
          SELECT ${orgId}, ${user.user_id}::int, ${user.username}, 'commission.paid', 'commission_payout', p.payout_id::text, v.description,
                 jsonb_build_object('payout_id', p.payout_id, 'agent', p.agent, 'month', ${input.month}::text, 'amount', p.amount::text,
                                    'devices_given', p.devices_given, 'revenue', p.revenue::text, 'reference', p.reference, 'all_agents', true)
          FROM p JOIN v ON v.agent = p.agent
          RETURNING 1
        )
        SELECT ${PAYOUT_COLUMNS} FROM p`);
      await run(webhookEventsSql(orgId, 'commission.paid', owed.map((e) => paidEvent(e, input.month, input.reference, user))));
      const byAgent = new Map(rows.map((r) => [r.agent, r]));
      const payouts = owed.map((e) => toPayout(byAgent.get(e.agent)!));
      return {
        message: `Paid ${owed.length} agent${owed.length === 1 ? '' : 's'} their commissions for ${name}: ${amountText(fromCents(total))}${input.reference ? ` (${input.reference})` : ''}.`,
        payouts,
        total: fromCents(total),
      };
    });
  }

  /** A payout recorded by mistake: kept, marked void with why, and the agent's month shows as unpaid again. */
  voidPayout(orgId: string, user: AuthUser, payoutId: number, input: VoidInput): Promise<CommissionPayoutReply> {
    return this.database.transaction(async (run) => {
      const [found] = await run<PayoutRow>(Prisma.sql`
        SELECT ${PAYOUT_COLUMNS} FROM commission_payouts WHERE organization_id = ${orgId} AND payout_id = ${payoutId}::int FOR UPDATE`);
      if (!found) throw Errors.notFound('Commission payout');
      if (found.voided_at) throw Errors.conflict(`This payout was voided already by ${found.voided_by}: ${found.void_reason}`);
      const description = `Voided the commission of ${amountText(found.amount)} paid to ${found.agent} for ${monthName(found.month)}: ${input.reason}`;
      const [row] = await run<PayoutRow>(Prisma.sql`
        WITH p AS (
          UPDATE commission_payouts SET voided_at = now(), voided_by = ${user.username}, void_reason = ${input.reason}
          WHERE organization_id = ${orgId} AND payout_id = ${payoutId}::int
          RETURNING *
        ), a AS (
          INSERT INTO audit_logs (organization_id, actor_user_id, actor_username, action, entity_type, entity_id, description, metadata)
          SELECT ${orgId}, ${user.user_id}::int, ${user.username}, 'commission.payout_voided', 'commission_payout', p.payout_id::text,
                 ${description},
                 jsonb_build_object('payout_id', p.payout_id, 'agent', p.agent, 'month', ${found.month}::text, 'amount', p.amount::text,
                                    'reason', p.void_reason)
          FROM p RETURNING 1
        ), w AS (
          ${webhookEventSql(orgId, 'commission.payout_voided', {
            payout_id: found.payout_id,
            agent: found.agent,
            month: found.month,
            amount: found.amount,
            reason: input.reason,
            voided_by: user.username,
          }, 'p')}
          RETURNING 1
        )
        SELECT ${PAYOUT_COLUMNS} FROM p`);
      return { message: `${description}.`, payout: toPayout(row!) };
    });
  }

  /** The payouts recorded (one agent's with `agent`), newest month first, and what the standing ones paid. */
  async payouts(orgId: string, q: PayoutsQuery): Promise<CommissionPayoutList> {
    const where = Prisma.sql`organization_id = ${orgId} ${q.agent !== undefined ? Prisma.sql`AND agent = ${q.agent}` : Prisma.empty}`;
    const [rows, [sum]] = await Promise.all([
      this.database.query<PayoutRow>(Prisma.sql`
        SELECT ${PAYOUT_COLUMNS} FROM commission_payouts WHERE ${where}
        ORDER BY month DESC, payout_id DESC LIMIT ${q.limit}::int OFFSET ${(q.page - 1) * q.limit}::int`),
      this.database.query<{ total: number; paid: string }>(Prisma.sql`
        SELECT count(*)::int AS total, coalesce(sum(amount) FILTER (WHERE voided_at IS NULL), 0)::numeric(20,2)::text AS paid
        FROM commission_payouts WHERE ${where}`),
    ]);
    const total = sum?.total ?? 0;
    return {
      data: rows.map(toPayout),
      total_paid: sum?.paid ?? '0.00',
      pagination: { total, total_pages: Math.ceil(total / q.limit), page: q.page, limit: q.limit },
    };
  }

  /** The month's page as CSV (commissions-YYYY-MM.csv), one row an agent; the export is recorded. */
  async export(orgId: string, month: string, reply: HttpReply, actor: AuthUser): Promise<void> {
    const m = await this.month(orgId, month);
    const res = streamReply(reply, 'text/csv; charset=utf-8', `commissions-${month}.csv`);
    let sent = false;
    const { count, complete } = await streamCsv(
      res,
      COMMISSIONS_CSV_COLUMNS,
      Math.max(1, m.data.length),
      async () => (sent ? [] : ((sent = true), m.data)),
      (a) => [
        month,
        a.agent,
        a.devices_given,
        a.payments,
        a.revenue,
        a.commission,
        a.status,
        a.payout?.amount ?? null,
        a.difference,
        a.payout?.reference ?? null,
        a.payout?.paid_by ?? null,
        a.payout?.paid_at ?? null,
        a.payout?.note ?? null,
      ],
    );
    this.audit.recordQuietly({
      organizationId: orgId,
      actor,
      action: 'commission.exported',
      entityType: 'commission_payout',
      description: `Exported the agent commissions of ${monthName(month)} to CSV (${count} agents)`,
      metadata: { month, count, complete },
    });
  }
}
