import { Injectable } from '@nestjs/common';
import type {
  ManualPaymentInput,
  MatchPaymentInput,
  PaymentListQuery,
  PaymentListReply,
  PaymentOutcome,
  RejectPaymentInput,
  RejectPaymentReply,
  ReversePaymentInput,
  ReversePaymentReply,
} from '@kidogo/contracts';
import { parseAmountToCents } from '@kidogo/mobile-money';
import { Prisma as PrismaSql, type Prisma } from '../generated/prisma/client.js';
import { DatabaseService } from '../database/database.service.js';
import { Errors } from '../common/errors.js';
import { offsetPagination } from '../common/pagination.js';
import type { AuthUser } from '../common/tenancy.js';
import { TokensService } from '../tokens/tokens.service.js';
import { PaymentPipeline } from './payment-pipeline.service.js';
import { toPayment } from './payments.mapper.js';
import { paymentsByDay } from '../stats/totals.js';
import { toPeriod } from '../metrics/period.js';
import { Calendar } from '../common/calendar.js';
import { webhookEventSql } from '../webhooks/webhook-events.js';

const DAY_MS = 86_400_000;

const NAMES = { customer: { select: { customer_name: true } }, item: { select: { serial_number: true } } } as const;

@Injectable()
export class PaymentsService {
  constructor(
    private readonly database: DatabaseService,
    private readonly tokens: TokensService,
    private readonly pipeline: PaymentPipeline,
    private readonly calendar: Calendar,
  ) {}

  async list(orgId: string, q: PaymentListQuery): Promise<PaymentListReply> {
    const db = this.database.read;
    const where: Prisma.PaymentWhereInput = { organization_id: orgId };
    if (q.status) where.status = q.status;
    if (q.method) where.payment_method = q.method;
    if (q.customer_id) where.customer_id = q.customer_id;
    // "2024-06-05" is the whole business day (TIME_ZONE); a date and time is taken as given.
    const period = toPeriod(q.from, q.to, this.calendar);
    if (period.from || period.until) where.paid_at = { ...(period.from ? { gte: period.from } : {}), ...(period.until ? { lt: period.until } : {}) };
    if (q.serial_number) {
      const item = await db.item.findFirst({
        where: {
          organization_id: orgId,
          OR: [{ serial_number: q.serial_number }, { serial_normalized: q.serial_number.toUpperCase().replace(/[\s-]/g, '') }],
        },
        select: { id: true },
      });
      if (!item) return { data: [], pagination: offsetPagination(0, q.limit, q.offset) };
      where.item_id = item.id;
    }
    const [rows, total] = await Promise.all([
      db.payment.findMany({ where, include: NAMES, orderBy: [{ paid_at: 'desc' }, { id: 'desc' }], take: q.limit, skip: q.offset }),
      q.method || q.customer_id || where.item_id !== undefined ? db.payment.count({ where }) : this.countByDay(orgId, q),
    ]);
    return { data: rows.map(toPayment), pagination: offsetPagination(total, q.limit, q.offset) };
  }

  /**
   * The ledger's total filtered by status and dates only, from the payments'
   * daily totals (payment_stats; rows only for part days at the ends):
   * counting 4,500,000 payments took 0.25 s on every page, and the web reads
   * the newest payment on most pages for the organization's currency.
   */
  private async countByDay(orgId: string, q: PaymentListQuery): Promise<number> {
    const [row] = await this.database.readQuery<{ n: number }>(PrismaSql.sql`
      SELECT coalesce(sum(n), 0)::int AS n FROM ${paymentsByDay(orgId, toPeriod(q.from, q.to, this.calendar), this.calendar)} p
      ${q.status ? PrismaSql.sql`WHERE status = ${q.status}::"PaymentStatus"` : PrismaSql.empty}`);
    return row!.n;
  }

  /**
   * Cash, bank or mobile money collected by staff or agents: the same pipeline as a received message. Cash is held
   * by the user named as its collector (an active user of the organization), else by whoever records it.
   */
  createManual(orgId: string, user: AuthUser, input: ManualPaymentInput): Promise<PaymentOutcome> {
    return this.database.transaction(async (run) => {
      const collectedBy = input.payment_method === 'cash' ? (input.collected_by ?? user.username) : null;
      if (input.collected_by !== undefined) {
        const [known] = await run<{ n: number }>(PrismaSql.sql`
          SELECT count(*)::int AS n FROM users WHERE organization_id = ${orgId} AND username = ${input.collected_by} AND is_active`);
        if (!known?.n) throw Errors.badRequest('collected_by', `no active user of this organization is called ${input.collected_by}`);
      }
      const item = await this.tokens.lockBySerial(run, orgId, input.serial_number);
      return this.pipeline.record(run, orgId, {
        transactionCode: input.reference ?? null,
        amountCents: parseAmountToCents(input.amount.toFixed(2))!,
        currency: null,
        method: input.payment_method,
        source: 'manual',
        accountReference: null,
        payerPhone: null,
        payerName: null,
        paidAt: input.paid_at ? new Date(input.paid_at) : new Date(),
        messageId: null,
        recordedBy: user.username,
        collectedBy,
        actor: user,
        itemId: item.item_id,
      });
    });
  }

  /**
   * Rejects a pending (unmatched) payment staff will not apply: it becomes
   * failed with 'Rejected by {user}: {reason}' as its hold_reason, its
   * message leaves the unmatched ones (status rejected), and the audit log
   * says who did it. Only a pending payment can be rejected (409 otherwise).
   */
  reject(orgId: string, user: AuthUser, paymentId: number, input: RejectPaymentInput): Promise<RejectPaymentReply> {
    return this.database.transaction(async (run) => {
      const [payment] = await run<{ id: number; status: string; transaction_code: string | null; amount: Prisma.Decimal; currency: string }>(PrismaSql.sql`
        SELECT payment_id AS id, status::text AS status, transaction_code, amount, currency FROM payments
        WHERE organization_id = ${orgId} AND payment_id = ${paymentId}::int FOR UPDATE`);
      if (!payment) throw Errors.notFound('Payment');
      if (payment.status !== 'pending') throw Errors.conflict(`Payment ${paymentId} is ${payment.status}: only a pending payment can be rejected`);
      const reason = `Rejected by ${user.username}: ${input.reason}`.slice(0, 300);
      const what = `${payment.currency} ${payment.amount.toFixed(2)}${payment.transaction_code ? ` (${payment.transaction_code})` : ''}`;
      await run(PrismaSql.sql`
        WITH p AS (
          UPDATE payments SET status = 'failed'::"PaymentStatus", hold_reason = ${reason}
          WHERE organization_id = ${orgId} AND payment_id = ${paymentId}::int RETURNING payment_id
        ), m AS (
          UPDATE messages SET status = 'rejected'::"MessageStatus"
          WHERE organization_id = ${orgId} AND payment_id = ${paymentId}::int AND status = 'unmatched'::"MessageStatus" RETURNING 1
        ), wh AS (${webhookEventSql(
          orgId,
          'payment.rejected',
          {
            payment_id: paymentId,
            transaction_code: payment.transaction_code,
            amount: payment.amount.toFixed(2),
            currency: payment.currency,
            reason: input.reason,
            rejected_by: user.username,
          },
          'p',
        )} RETURNING 1)
        INSERT INTO audit_logs (organization_id, actor_user_id, actor_username, action, entity_type, entity_id, description, metadata)
        SELECT ${orgId}, ${user.user_id}::int, ${user.username}, 'payment.reject', 'payment', ${String(paymentId)},
               ${`Held payment ${paymentId}, ${what}, rejected by ${user.username}: ${input.reason}`},
               ${JSON.stringify({ reason: input.reason, transaction_code: payment.transaction_code })}::jsonb
        FROM p`);
      return { message: 'Payment rejected', payment_id: paymentId, status: 'failed', hold_reason: reason };
    });
  }

  /**
   * Takes a completed payment off the device it was applied to (a mistyped
   * account number, a cash entry on the wrong serial) and holds it again,
   * for staff to match to the right device or reject: the payment becomes
   * pending with 'Reversed from {serial} by {user}: {reason}', and the
   * device's account goes back to what it was before it: total paid, credit,
   * the days its tokens added and, when it was the payment that activated
   * the device, its activation. Revenue, balances, Collections and promises
   * follow from the payment's status.
   *
   * Only the latest payment applied to the device's current account can be
   * undone exactly (what a payment buys depends on what came before it), and
   * not one that paid the device off (its unlock code opens the device for
   * good). The codes already sent stay what they are: the device still takes
   * them, so if its holder typed one, staff lock it back with a Set Time token.
   */
  reverse(orgId: string, user: AuthUser, paymentId: number, input: ReversePaymentInput): Promise<ReversePaymentReply> {
    return this.database.transaction(async (run) => {
      const [payment] = await run<{
        id: number;
        status: string;
        item_id: number | null;
        customer_id: number | null;
        amount: Prisma.Decimal;
        currency: string;
        transaction_code: string | null;
        days_bought: number;
        applied: Date;
      }>(PrismaSql.sql`
        SELECT payment_id AS id, status::text AS status, item_id, customer_id, amount, currency, transaction_code, days_bought,
               coalesce(applied_at, created_at) AS applied
        FROM payments WHERE organization_id = ${orgId} AND payment_id = ${paymentId}::int FOR UPDATE`);
      if (!payment) throw Errors.notFound('Payment');
      if (payment.status !== 'completed' && payment.status !== 'success') {
        throw Errors.conflict(`Payment ${paymentId} is ${payment.status}: only a completed payment can be reversed`);
      }
      if (payment.item_id === null) throw Errors.conflict(`Payment ${paymentId} was not applied to a device: there is nothing to reverse`);
      // Locked after the payment, as matching does; everything below is read after the lock.
      const item = await this.tokens.lockItem(run, orgId, payment.item_id);
      const serial = item.serial_number;
      if (item.customer_id === null || item.customer_id !== payment.customer_id || (item.assigned_at && item.assigned_at > payment.applied)) {
        const [swap] = await run<{ serial_number: string }>(PrismaSql.sql`
          SELECT n.serial_number FROM device_swaps s
          JOIN items n ON n.organization_id = s.organization_id AND n.item_id = s.new_item_id
          WHERE s.organization_id = ${orgId} AND s.old_item_id = ${item.item_id}::int AND s.customer_id = ${payment.customer_id}::int
            AND s.swapped_at > ${payment.applied.toISOString()}::timestamptz
          ORDER BY s.swapped_at LIMIT 1`);
        if (swap) {
          throw Errors.conflict(
            `Device ${serial} was swapped for ${swap.serial_number} after payment ${paymentId}: the days it bought went to the replacement with the account, so it cannot be reversed`,
          );
        }
        throw Errors.conflict(`Device ${serial} started a new account after payment ${paymentId}: the payment belongs to a closed account and cannot be reversed`);
      }
      const [later] = await run<{ id: number }>(PrismaSql.sql`
        SELECT payment_id AS id FROM payments
        WHERE organization_id = ${orgId} AND item_id = ${item.item_id}::int AND status IN ('success', 'completed') AND payment_id <> ${paymentId}::int
          AND (coalesce(applied_at, created_at), payment_id) > (${payment.applied.toISOString()}::timestamptz, ${paymentId}::int)
        ORDER BY coalesce(applied_at, created_at) DESC, payment_id DESC LIMIT 1`);
      if (later) {
        throw Errors.conflict(
          `Payment ${later.id} was applied to device ${serial} after payment ${paymentId}: only the latest payment on a device can be reversed; reverse payment ${later.id} first`,
        );
      }
      const tokens = await run<{ token_type: string; days: number }>(PrismaSql.sql`
        SELECT token_type::text AS token_type, days_generated::int AS days FROM token_logs
        WHERE organization_id = ${orgId} AND payment_id = ${paymentId}::int`);
      if (tokens.some((t) => t.token_type === 'unlock')) {
        throw Errors.conflict(`Payment ${paymentId} paid device ${serial} off and its unlock code opens the device for good: it cannot be reversed`);
      }
      const activated = tokens.some((t) => t.token_type === 'activation');
      const daysRemoved = tokens.filter((t) => t.token_type === 'add_time' || t.token_type === 'activation').reduce((s, t) => s + t.days, 0);
      const totalPaid = item.total_paid.minus(payment.amount);
      // The credit before the payment, by the payment rule it went through (allocatePayment).
      let credit: Prisma.Decimal;
      if (activated) credit = totalPaid; // before activation every payment is held as credit
      else if (tokens.length) {
        const daily = item.tpl_daily_price;
        credit = daily ? item.credit.plus(daily.times(payment.days_bought)).minus(payment.amount) : new PrismaSql.Decimal(-1);
        if (!daily || credit.lessThan(0) || credit.greaterThanOrEqualTo(daily)) {
          throw Errors.conflict(`The payment plan of device ${serial} changed after payment ${paymentId}, so what it bought cannot be worked out: it cannot be reversed`);
        }
      } else credit = item.credit.minus(payment.amount);
      if (totalPaid.lessThan(0) || credit.lessThan(0) || credit.greaterThan(totalPaid)) {
        throw Errors.conflict(`Device ${serial}'s account no longer matches payment ${paymentId} (it was changed by hand): it cannot be reversed`);
      }
      const creditUntil = activated || !item.credit_until ? null : new Date(item.credit_until.getTime() - daysRemoved * DAY_MS);
      const reason = `Reversed from ${serial} by ${user.username}: ${input.reason}`.slice(0, 300);
      const what = `${payment.currency} ${payment.amount.toFixed(2)}${payment.transaction_code ? ` (${payment.transaction_code})` : ''}`;
      const metadata = {
        reason: input.reason,
        transaction_code: payment.transaction_code,
        serial_number: serial,
        customer_id: payment.customer_id,
        days_removed: daysRemoved,
        deactivated: activated,
        before: { total_paid: item.total_paid.toFixed(2), credit: item.credit.toFixed(2), credit_until: item.credit_until?.toISOString() ?? null },
        after: { total_paid: totalPaid.toFixed(2), credit: credit.toFixed(2), credit_until: creditUntil?.toISOString() ?? null },
      };
      await run(PrismaSql.sql`
        WITH p AS (
          UPDATE payments SET status = 'pending'::"PaymentStatus", item_id = NULL, customer_id = NULL, days_bought = 0, credit_after = NULL,
                              hold_reason = ${reason}, applied_at = NULL
          WHERE organization_id = ${orgId} AND payment_id = ${paymentId}::int RETURNING payment_id
        ), d AS (
          UPDATE items SET total_paid = ${totalPaid.toFixed(2)}::numeric, credit = ${credit.toFixed(2)}::numeric,
                           credit_until = ${creditUntil?.toISOString() ?? null}::timestamptz,
                           activated_at = ${activated ? PrismaSql.sql`NULL` : PrismaSql.sql`activated_at`}, updated_at = now()
          WHERE organization_id = ${orgId} AND item_id = ${item.item_id}::int RETURNING 1
        ), m AS (
          -- The customer's text is unmatched again, next to the payment held for staff.
          UPDATE messages SET status = 'unmatched'::"MessageStatus"
          WHERE organization_id = ${orgId} AND payment_id = ${paymentId}::int AND raw_payload IS NOT NULL AND status = 'processed'::"MessageStatus"
          RETURNING 1
        ), pr AS (
          -- Promises this payment kept are kept by the device's next payment, if any (the trigger that marks
          -- them sees payments arriving, not leaving).
          UPDATE collection_contacts cc SET paid_at = f.paid_at, paid_amount = f.amount
          FROM collection_contacts c2
          LEFT JOIN LATERAL (
            SELECT q.paid_at, q.amount FROM payments q
            WHERE q.organization_id = c2.organization_id AND q.item_id = c2.item_id AND q.status IN ('success', 'completed')
              AND q.payment_id <> ${paymentId}::int AND q.paid_at >= c2.created_at
            ORDER BY q.paid_at LIMIT 1
          ) f ON true
          WHERE c2.organization_id = ${orgId} AND c2.item_id = ${item.item_id}::int AND c2.outcome = 'promised_to_pay' AND NOT c2.superseded
            AND c2.paid_at IS NOT NULL AND cc.organization_id = c2.organization_id AND cc.contact_id = c2.contact_id
          RETURNING 1
        ), wh AS (${webhookEventSql(
          orgId,
          'payment.reversed',
          {
            payment_id: paymentId,
            transaction_code: payment.transaction_code,
            amount: payment.amount.toFixed(2),
            currency: payment.currency,
            reason: input.reason,
            reversed_by: user.username,
            hold_reason: reason,
            serial_number: serial,
            item_id: item.item_id,
            customer_id: payment.customer_id,
            days_removed: daysRemoved,
            deactivated: activated,
            device: metadata.after,
          },
          'p',
        )} RETURNING 1)
        INSERT INTO audit_logs (organization_id, actor_user_id, actor_username, action, entity_type, entity_id, description, metadata)
        SELECT ${orgId}, ${user.user_id}::int, ${user.username}, 'payment.reverse', 'payment', ${String(paymentId)},
               ${`Payment ${paymentId}, ${what}, reversed from device ${serial} by ${user.username} and held for matching: ${input.reason}`},
               ${JSON.stringify(metadata)}::jsonb
        FROM p`);
      return {
        message: 'Payment reversed: it is held for matching',
        payment_id: paymentId,
        status: 'pending',
        hold_reason: reason,
        serial_number: serial,
        total_paid: totalPaid.toFixed(2),
        credit: credit.toFixed(2),
        credit_until: creditUntil?.toISOString() ?? null,
        days_removed: daysRemoved,
        deactivated: activated,
      };
    });
  }

  /** Assigns a pending (unmatched) payment to a device and runs the rest of the pipeline. */
  match(orgId: string, user: AuthUser, paymentId: number, input: MatchPaymentInput): Promise<PaymentOutcome> {
    return this.database.transaction(async (run) => {
      const [payment] = await run<{
        id: number;
        status: string;
        amount: Prisma.Decimal;
        currency: string;
        payer_phone: string | null;
        message_id: number | null;
        transaction_code: string | null;
      }>(PrismaSql.sql`
        SELECT payment_id AS id, status::text AS status, amount, currency, payer_phone, message_id, transaction_code FROM payments
        WHERE organization_id = ${orgId} AND payment_id = ${paymentId}::int FOR UPDATE`);
      if (!payment) throw Errors.notFound('Payment');
      if (payment.status !== 'pending') throw Errors.conflict(`Payment ${paymentId} is ${payment.status}: only a pending payment can be matched`);
      const item = await this.tokens.lockBySerial(run, orgId, input.serial_number);
      const result = await this.pipeline.apply(run, orgId, payment, item.item_id, { generatedBy: user.username, actor: user });
      const metadata = { serial_number: result.serial_number ?? null, days: result.days ?? 0 };
      await run(PrismaSql.sql`
        INSERT INTO audit_logs (organization_id, actor_user_id, actor_username, action, entity_type, entity_id, description, metadata)
        VALUES (${orgId}, ${user.user_id}::int, ${user.username}, 'payment.match', 'payment', ${String(paymentId)},
                ${`Unmatched payment ${paymentId} assigned to device ${result.serial_number} by ${user.username}`}, ${JSON.stringify(metadata)}::jsonb)`);
      return result;
    });
  }
}
