import { Injectable } from '@nestjs/common';
import {
  allocatePayment,
  formatCents,
  formatPaymentReply,
  normalizeAccountRef,
  normalizePhone,
  parseAmountToCents,
  type Allocation,
  type AllocationTemplate,
  replyLanguage,
  namedText,
} from '@kidogo/mobile-money';
import { MPESA_EXPRESS_ACCOUNT_REFERENCE_MAX, type IssuedToken, type PaymentMethod, type PaymentOutcome } from '@kidogo/contracts';
import { Prisma } from '../generated/prisma/client.js';
import type { Run } from '../database/database.service.js';
import { Errors } from '../common/errors.js';
import type { AuthUser } from '../common/tenancy.js';
import { settingsOf, TokensService } from '../tokens/tokens.service.js';
import { lockItemsSql, tokenColumnsSql, tokenInsertsSql, type LockedItem, type PlannedToken } from '../tokens/token-device.js';
import { webhookEventSql } from '../webhooks/webhook-events.js';
import { phoneCountry } from '../customers/phone-country.js';

/** One payment as it reaches the pipeline, whatever brought it (SMS, Daraja, statement row, agent). */
export interface IncomingPayment {
  /** Mobile-money code or manual reference: the idempotency key (unique per organization). */
  transactionCode: string | null;
  amountCents: number;
  currency: string | null;
  method: PaymentMethod;
  source: 'sms' | 'daraja' | 'mtn_momo' | 'airtel_money' | 'statement' | 'manual';
  accountReference: string | null;
  /** Canonical phone (2547XXXXXXXX) or null. */
  payerPhone: string | null;
  payerName: string | null;
  paidAt: Date;
  /** The incoming message that carried it; the reply is stored on the same row. */
  messageId: number | null;
  recordedBy: string;
  /** A cash payment recorded by hand: the user who holds its cash (README "Cash in hand"); null otherwise. */
  collectedBy?: string | null;
  actor?: Pick<AuthUser, 'user_id' | 'username'> | null;
  /** The device, when the caller already knows it (manual payments). */
  itemId?: number;
  /**
   * Why not to apply it to any device on its own: it is kept pending, with
   * this reason, until staff match it (POST /payments/{id}/match).
   */
  hold?: string;
  /**
   * The gateway request that carried it, kept raw in inbound_requests until
   * now: the receiver's message row is written once, with the outcome, by the
   * statement that records the payment (messageId is then null).
   */
  incoming?: IncomingMessage;
}

/** A received request as the messages table keeps it. */
export interface IncomingMessage {
  /** The message id reserved when the request was stored raw. */
  id: number;
  /** The body as JSON text. */
  payload: string;
  text: string | null;
  sender: string | null;
  receivedAt: Date | null;
}

/** Columns and values of a new incoming message row (its id reserved with the raw request). */
const incomingColumns = Prisma.sql`message_id, organization_id, raw_payload, received_message, sender, received_at`;
const incomingValues = (id: number, orgId: string, m: IncomingMessage) =>
  Prisma.sql`${id}::int, ${orgId}, ${m.payload}::jsonb, ${m.text}, ${m.sender}, coalesce(${m.receivedAt?.toISOString() ?? null}::timestamptz, now())`;

/**
 * What the receiver stores on its message row with the outcome: the parsed
 * payment and the fields it shows in the history. Written by the same
 * statement that records the payment.
 */
export interface MessageFinish {
  transactionCode: string;
  amount: string;
  parsed: unknown;
}

const cents = (d: Prisma.Decimal | string | number): number => {
  const c = parseAmountToCents(typeof d === 'number' ? d.toFixed(2) : new Prisma.Decimal(d).toFixed(2));
  if (c === null) throw new Error(`Not an amount: ${String(d)}`);
  return c;
};

const json = (v: unknown) => JSON.stringify(v);

/**
 * Why money in one currency cannot be applied to a plan priced in another
 * (null when it can): at face value, 27,200 Ugandan shillings would be read
 * as 27,200 Kenyan ones and unlock the device for good. A payment that names
 * no currency (a staff entry) is in the plan's.
 */
function currencyMismatch(item: LockedItem, currency: string | null): string | null {
  if (!currency || item.tpl_id === null || !item.tpl_currency) return null;
  if (currency.trim().toUpperCase() === item.tpl_currency.trim().toUpperCase()) return null;
  return `Paid in ${currency}, but the plan of device ${item.serial_number} is in ${item.tpl_currency}`;
}

/** A payment applied to a device nobody has would belong to no customer's history. */
const unassigned = (serial: string) =>
  Errors.conflict(`Device ${serial} is not assigned to a customer: assign it before applying a payment to it`);

/**
 * The loop the product exists for: record a payment once (the transaction
 * code is unique per organization), find its device, apply the payment rules
 * (allocatePayment), make the tokens (TokensService.plan) and queue the reply
 * SMS, all inside the caller's transaction (DatabaseService.transaction).
 *
 * Built for throughput (300 payments a second on two cores): the device is
 * found and locked with its customer, maker settings, active template and a
 * new payment id in one statement; the rules and tokens are computed here;
 * then ONE statement writes the payment (already completed: no second
 * version of the row), the token logs, their audit entries, the device and
 * the message. That statement inserts the payment with ON CONFLICT DO
 * NOTHING and every other write is conditional on it, so a second delivery
 * of the same code (which waited for the device lock) writes nothing and
 * replays the first one's result.
 */
/** Why a payment no device was found for is held (findDevice's rules), as the held payments list and a statement's reply say it. */
export function unmatchedReason(p: { accountReference?: string | null; payerPhone?: string | null }): string {
  const account = p.accountReference?.trim();
  if (account) return `No single device matches the account reference ${account}`;
  if (p.payerPhone) return "No account reference, and no single device matches the payer's phone";
  return "No account reference and no payer's phone to find the device by";
}

@Injectable()
export class PaymentPipeline {
  constructor(private readonly tokens: TokensService) {}

  /**
   * The device a swap moved this unassigned device's account to, locked, while
   * that customer still has it (following a replacement swapped again); null
   * when there is none. Read only for a device nobody has: the usual payment
   * does not pay for it.
   */
  private async swappedTo(run: Run, orgId: string, item: LockedItem, ids: { nextPaymentId: boolean }): Promise<LockedItem | null> {
    let from = item;
    for (let hops = 0; hops < 10; hops++) {
      const [swap] = await run<{ new_item_id: number; customer_id: number }>(Prisma.sql`
        SELECT new_item_id, customer_id FROM device_swaps
        WHERE organization_id = ${orgId} AND old_item_id = ${from.item_id}::int ORDER BY swapped_at DESC, swap_id DESC LIMIT 1`);
      if (!swap) return null;
      const next = await this.tokens.lockItem(run, orgId, swap.new_item_id, ids);
      if (next.customer_id === swap.customer_id) return next;
      if (next.customer_id !== null) return null;
      from = next;
    }
    return null;
  }

  async record(run: Run, orgId: string, p: IncomingPayment, finish?: MessageFinish): Promise<PaymentOutcome> {
    if (p.hold) return this.recordUnmatched(run, orgId, p, finish);
    const ids = { nextPaymentId: true };
    let item = p.itemId !== undefined ? await this.tokens.lockItem(run, orgId, p.itemId, ids) : await this.findDevice(run, orgId, p, ids);
    if (!item) return this.recordUnmatched(run, orgId, p, finish);
    // Sent to a device swapped away from its customer (out of habit): the replacement that carries the account.
    if (item.customer_id === null && p.itemId === undefined) item = (await this.swappedTo(run, orgId, item, ids)) ?? item;
    // Money sent for a device nobody has yet belongs to no customer: staff decide (the account number may be mistyped).
    if (item.customer_id === null && p.itemId === undefined) {
      return this.recordUnmatched(run, orgId, { ...p, hold: `Device ${item.serial_number} is not assigned to a customer: held until staff match it` }, finish);
    }
    if (item.status === 'retired') throw Errors.conflict(`Device ${item.serial_number} is retired: it cannot take payments`);
    if (item.customer_id === null) throw unassigned(item.serial_number);
    const foreign = currencyMismatch(item, p.currency);
    if (foreign && p.itemId !== undefined) throw Errors.conflict(`${foreign}: record it in ${item.tpl_currency}`);
    if (foreign) return this.recordUnmatched(run, orgId, { ...p, hold: `${foreign}: held until staff match it` }, finish);
    // The payment row points at the incoming message.
    const messageId = p.incoming ? p.incoming.id : p.messageId;
    const amount = formatCents(p.amountCents);
    const applied = this.allocate(item, p.amountCents, p.currency ?? 'KES');
    const paymentId = item.next_payment_id!;
    const planned = this.tokens.plan(
      item,
      applied.allocation.tokens.map((t, i) => ({ type: t.type, days: t.days, amountPaid: i === 0 ? amount : null, byPayment: true })),
    );
    const result = this.result(item, { id: paymentId, amount, transactionCode: p.transactionCode, payerPhone: p.payerPhone }, applied, planned);
    const payment = Prisma.sql`
      INSERT INTO payments (payment_id, organization_id, amount, currency, payment_method, status, transaction_code, reference,
                            account_reference, payer_phone, payer_name, source, message_id, recorded_by, collected_by, paid_at,
                            item_id, customer_id, days_bought, credit_after)
      VALUES (${paymentId}::int, ${orgId}, ${amount}::numeric, ${applied.currency}, ${p.method}, 'completed'::"PaymentStatus",
              ${p.transactionCode}, ${p.source === 'manual' ? p.transactionCode : null}, ${p.accountReference},
              ${p.payerPhone}, ${p.payerName}, ${p.source}, ${messageId}::int, ${p.recordedBy}, ${p.collectedBy ?? null}, ${p.paidAt.toISOString()}::timestamptz,
              ${item.item_id}::int, ${item.customer_id}::int, ${applied.allocation.daysBought}::int, ${applied.credit}::numeric)
      ON CONFLICT (organization_id, transaction_code) DO NOTHING
      RETURNING payment_id`;
    const written = await this.write(run, orgId, item, planned, { ...p, newMessageId: p.incoming ? messageId : null }, {
      payment,
      paymentId,
      by: p.recordedBy,
      result,
      finish,
      event: { method: p.method, source: p.source, paid_at: p.paidAt.toISOString(), payer_phone: p.payerPhone, recorded_by: p.recordedBy },
    });
    if (!written) return this.replay(run, orgId, p, finish);
    return { ...result.outcome, message_id: written.messageId };
  }

  /** Applies a recorded pending (unmatched) payment to a device, in the caller's transaction with the payment row locked. */
  async apply(
    run: Run,
    orgId: string,
    payment: { id: number; amount: Prisma.Decimal; currency: string; payer_phone: string | null; message_id: number | null; transaction_code: string | null },
    itemId: number,
    by: { generatedBy: string; actor: Pick<AuthUser, 'user_id' | 'username'> | null },
  ): Promise<PaymentOutcome> {
    const item = await this.tokens.lockItem(run, orgId, itemId);
    if (item.status === 'retired') throw Errors.conflict(`Device ${item.serial_number} is retired: it cannot take payments`);
    if (item.customer_id === null) throw unassigned(item.serial_number);
    const foreign = currencyMismatch(item, payment.currency);
    if (foreign) throw Errors.conflict(`${foreign}: it cannot be applied to it; record what it is worth in ${item.tpl_currency} as a staff payment`);
    const amount = payment.amount.toFixed(2);
    const applied = this.allocate(item, cents(payment.amount), payment.currency);
    const planned = this.tokens.plan(
      item,
      applied.allocation.tokens.map((t, i) => ({ type: t.type, days: t.days, amountPaid: i === 0 ? amount : null, byPayment: true })),
    );
    const result = this.result(item, { id: payment.id, amount, transactionCode: payment.transaction_code, payerPhone: payment.payer_phone }, applied, planned);
    const update = Prisma.sql`
      UPDATE payments SET item_id = ${item.item_id}::int, customer_id = ${item.customer_id}::int, status = 'completed'::"PaymentStatus", hold_reason = NULL,
                          days_bought = ${applied.allocation.daysBought}::int, credit_after = ${applied.credit}::numeric,
                          currency = ${applied.currency}, applied_at = now()
      WHERE organization_id = ${orgId} AND payment_id = ${payment.id}::int
      RETURNING payment_id`;
    const written = await this.write(
      run,
      orgId,
      item,
      planned,
      { messageId: payment.message_id, actor: by.actor },
      { payment: update, paymentId: payment.id, by: by.generatedBy, result, event: { payer_phone: payment.payer_phone, matched_by: by.generatedBy } },
    );
    return { ...result.outcome, message_id: written!.messageId };
  }

  /**
   * The device a payment is for, locked: the account reference as a serial
   * number, else as a customer's ID number or phone (when that customer has
   * exactly one device); with no account reference (till and personal
   * receipts), the payer's phone. Null when nothing matches exactly one device.
   */
  private async findDevice(run: Run, orgId: string, p: IncomingPayment, ids: { nextPaymentId: boolean }): Promise<LockedItem | null> {
    const raw = p.accountReference?.trim() ?? '';
    const ref = normalizeAccountRef(raw);
    let customer: Prisma.Sql | null = null;
    if (ref) {
      const serials = [...new Set([ref, raw.toUpperCase().replace(/[\s-]/g, '')])];
      const items = await run<LockedItem>(
        lockItemsSql(orgId, Prisma.sql`i.serial_normalized = ANY(${serials}::text[]) AND i.status <> 'retired'::"ItemStatus"`, { limit: 2, ...ids }),
      );
      if (items.length === 1) return items[0]!;
      if (items.length > 1) return null;
      const asked = await this.askedDevice(run, orgId, raw, p.amountCents);
      if (asked !== null) return this.tokens.lockItem(run, orgId, asked, ids);
      // A phone typed as the account: without a country code, one of the organization's country.
      const phone = /\d{8}/.test(raw.replace(/\D/g, '')) ? normalizePhone(raw, await phoneCountry(run, orgId)) : null;
      customer = Prisma.sql`(id_number = ANY(${[...new Set([raw, ref])]}::text[])${phone ? Prisma.sql` OR phone_normalized = ${phone}` : Prisma.empty})`;
    } else if (p.payerPhone) {
      customer = Prisma.sql`phone_normalized = ${p.payerPhone}`;
    }
    if (!customer) return null;
    // The customer (exactly one) and their device (exactly one, not retired), in one statement.
    const [only] = await run<{ item_id: number | null }>(Prisma.sql`
      WITH c AS (SELECT customer_id FROM customers WHERE organization_id = ${orgId} AND ${customer} LIMIT 2),
           i AS (SELECT item_id FROM items WHERE organization_id = ${orgId} AND status <> 'retired'::"ItemStatus"
                   AND customer_id = (SELECT customer_id FROM c) AND (SELECT count(*) FROM c) = 1 LIMIT 2)
      SELECT CASE WHEN (SELECT count(*) FROM i) = 1 THEN (SELECT item_id FROM i) END AS item_id`);
    if (!only?.item_id) return null;
    return this.tokens.lockItem(run, orgId, only.item_id, ids);
  }

  /**
   * M-Pesa shows the customer, and sends back as the account, at most 12 characters: an M-Pesa Express request for a
   * device with a longer serial number comes back from the paybill's confirmation or the SMS with the first 12. Such
   * an account is that device's when exactly one device whose serial starts so was asked for this amount in the last
   * day by a request not yet given its payment (the receipt's own result may be lost).
   */
  private async askedDevice(run: Run, orgId: string, raw: string, amountCents: number): Promise<number | null> {
    if (raw.length !== MPESA_EXPRESS_ACCOUNT_REFERENCE_MAX) return null;
    const [asked] = await run<{ item_id: number | null }>(Prisma.sql`
      WITH d AS (
        SELECT DISTINCT r.item_id FROM payment_requests r
        JOIN items i ON i.organization_id = r.organization_id AND i.item_id = r.item_id AND i.status <> 'retired'::"ItemStatus"
        WHERE r.organization_id = ${orgId} AND r.created_at > now() - interval '1 day' AND r.payment_id IS NULL
          AND r.status IN ('pending', 'paid') AND r.amount = ${formatCents(amountCents)}::numeric
          AND length(i.serial_number) > ${MPESA_EXPRESS_ACCOUNT_REFERENCE_MAX}::int
          AND upper(left(i.serial_number, ${MPESA_EXPRESS_ACCOUNT_REFERENCE_MAX}::int)) = ${raw.toUpperCase()}
        LIMIT 2)
      SELECT CASE WHEN (SELECT count(*) FROM d) = 1 THEN (SELECT item_id FROM d) END AS item_id`);
    return asked?.item_id ?? null;
  }

  /** No single device: the payment is kept as pending (the reply is the history only). */
  private async recordUnmatched(run: Run, orgId: string, p: IncomingPayment, finish?: MessageFinish): Promise<PaymentOutcome> {
    const amount = formatCents(p.amountCents);
    const [{ id }] = await run<{ id: number }>(Prisma.sql`SELECT nextval(pg_get_serial_sequence('payments', 'payment_id'))::int AS id`);
    const messageId = p.incoming ? p.incoming.id : p.messageId;
    const outcome: PaymentOutcome = { status: 'unmatched', payment_id: id, transaction_code: p.transactionCode, amount, ...(p.hold ? { hold_reason: p.hold } : {}) };
    let message = Prisma.empty;
    if (finish && messageId !== null) {
      const stored = json({ parsed: finish.parsed, outcome: { ...outcome, message_id: messageId } });
      message = p.incoming
        ? Prisma.sql`, m AS (
            INSERT INTO messages (${incomingColumns}, status, transaction_code, amount, payment_id, result)
            SELECT ${incomingValues(messageId, orgId, p.incoming)}, 'unmatched'::"MessageStatus", ${finish.transactionCode},
                   ${finish.amount}::numeric, ${id}::int, ${stored}::jsonb
            FROM p RETURNING message_id)`
        : Prisma.sql`, m AS (
            UPDATE messages SET status = 'unmatched'::"MessageStatus", parse_error = NULL, transaction_code = ${finish.transactionCode},
                   amount = ${finish.amount}::numeric, payment_id = ${id}::int, result = ${stored}::jsonb
            WHERE organization_id = ${orgId} AND message_id = ${messageId}::int AND EXISTS (SELECT 1 FROM p) RETURNING message_id)`;
    }
    const holdReason = (p.hold ?? unmatchedReason(p)).slice(0, 300);
    const event = webhookEventSql(
      orgId,
      'payment.held',
      {
        payment_id: id,
        transaction_code: p.transactionCode,
        amount,
        currency: p.currency ?? 'KES',
        method: p.method,
        source: p.source,
        paid_at: p.paidAt.toISOString(),
        account_reference: p.accountReference,
        payer_phone: p.payerPhone,
        payer_name: p.payerName,
        hold_reason: holdReason,
      },
      'p',
    );
    const rows = await run(Prisma.sql`
      WITH p AS (
        INSERT INTO payments (payment_id, organization_id, amount, currency, payment_method, status, transaction_code, reference,
                              account_reference, payer_phone, payer_name, source, message_id, recorded_by, collected_by, paid_at, hold_reason, applied_at)
        VALUES (${id}::int, ${orgId}, ${amount}::numeric, ${p.currency ?? 'KES'}, ${p.method}, 'pending'::"PaymentStatus",
                ${p.transactionCode}, ${p.source === 'manual' ? p.transactionCode : null}, ${p.accountReference},
                ${p.payerPhone}, ${p.payerName}, ${p.source}, ${messageId}::int, ${p.recordedBy}, ${p.collectedBy ?? null}, ${p.paidAt.toISOString()}::timestamptz,
                ${holdReason}, NULL)
        ON CONFLICT (organization_id, transaction_code) DO NOTHING
        RETURNING payment_id
      ), wh AS (${event} RETURNING 1)${message}
      SELECT payment_id FROM p`);
    if (!rows.length) return this.replay(run, orgId, p, finish);
    return p.incoming && messageId !== null ? { ...outcome, message_id: messageId } : outcome;
  }

  /** The payment rules on the locked device and its customer's active plan. */
  private allocate(item: LockedItem, amountCents: number, paymentCurrency: string) {
    const settings = settingsOf(item);
    // The discounts given on the device's account come off either payoff price (README "Discounts").
    const discountCents = cents(item.discount);
    const less = (price: number | null) => (price === null ? null : Math.max(0, price - discountCents));
    let template: AllocationTemplate | null = null;
    if (item.tpl_id !== null && item.tpl_daily_price !== null && cents(item.tpl_daily_price) > 0) {
      template = {
        depositCents: cents(item.tpl_deposit_made!),
        activationPriceCents: cents(item.tpl_activation_price!),
        dailyPriceCents: cents(item.tpl_daily_price),
        gracePeriodDays: item.tpl_grace_period_days!,
        freeCodePriceCents: less(item.tpl_free_code_price === null ? null : cents(item.tpl_free_code_price)),
        maxDaysPerToken: Math.max(1, settings.maxDaysPerToken),
      };
    }
    const priceCents = cents(item.price);
    const allocation = allocatePayment({
      amountCents,
      device: {
        creditCents: cents(item.credit),
        totalPaidCents: cents(item.total_paid),
        activated: item.activated_at !== null,
        // A device without a price (0) has no payoff price of its own.
        priceCents: less(priceCents > 0 ? priceCents : null),
      },
      template,
    });
    return {
      allocation,
      credit: formatCents(allocation.newCreditCents),
      totalPaid: formatCents(allocation.newTotalPaidCents),
      currency: item.tpl_id !== null ? item.tpl_currency! : paymentCurrency,
    };
  }

  /** The outcome, the reply text and its recipient, before anything is written. */
  private result(
    item: LockedItem,
    payment: { id: number; amount: string; transactionCode: string | null; payerPhone: string | null },
    applied: ReturnType<PaymentPipeline['allocate']>,
    planned: PlannedToken[],
  ) {
    const a = applied.allocation;
    const remaining = a.remainingToPayOffCents === null ? null : formatCents(a.remainingToPayOffCents);
    const text = namedText(formatPaymentReply({
      language: replyLanguage(item.org_reply_language),
      amount: payment.amount,
      currency: applied.currency,
      serialNumber: item.serial_number,
      tokens: planned.map((t) => ({ type: t.kind as 'activation' | 'add_time' | 'unlock', days: t.days, token: t.token })),
      creditLeft: applied.credit,
      remainingBalance: remaining,
      customerName: item.customer_name,
      reason: a.reason,
      remainingToActivate: a.remainingToActivateCents > 0 ? formatCents(a.remainingToActivateCents) : null,
    }), item.org_text_name);
    const recipient = payment.payerPhone ?? item.customer_phone_normalized ?? (item.customer_phone ? normalizePhone(item.customer_phone, item.org_phone_country_code) : null);
    const issued: IssuedToken[] = planned.map((t) => ({ token: t.token, token_type: t.kind, days: t.days, token_count: t.count }));
    const outcome: PaymentOutcome = {
      status: 'processed',
      payment_id: payment.id,
      ...(issued[0] ? { token: issued[0].token, days: issued.reduce((s, t) => s + t.days, 0) } : {}),
      tokens: issued,
      reason: a.reason,
      serial_number: item.serial_number,
      transaction_code: payment.transactionCode,
      amount: payment.amount,
      credit: applied.credit,
      remaining_balance: remaining,
      reply_message: text,
    };
    return { outcome, text, recipient, applied, amount: payment.amount };
  }

  /**
   * One statement: the payment (inserted or updated, `payment` returns its
   * id), then, only if it did, the token logs and their audit entries, the
   * device's balances and token columns, and the reply on the message row
   * (the incoming one, or a new one for payments without a message).
   * Returns null when the payment statement returned nothing (a duplicate).
   */
  private async write(
    run: Run,
    orgId: string,
    item: LockedItem,
    planned: PlannedToken[],
    p: { messageId: number | null; incoming?: IncomingMessage; newMessageId?: number | null; actor?: Pick<AuthUser, 'user_id' | 'username'> | null },
    w: {
      payment: Prisma.Sql;
      paymentId: number;
      by: string;
      result: ReturnType<PaymentPipeline['result']>;
      finish?: MessageFinish;
      /** What the payment.applied event says besides the outcome (how the payment came). */
      event: Record<string, unknown>;
    },
  ): Promise<{ messageId: number } | null> {
    const { result } = w;
    const o = result.outcome;
    const event = webhookEventSql(
      orgId,
      'payment.applied',
      {
        payment_id: w.paymentId,
        transaction_code: o.transaction_code,
        amount: o.amount,
        currency: result.applied.currency,
        ...w.event,
        serial_number: item.serial_number,
        item_id: item.item_id,
        customer_id: item.customer_id,
        customer_name: item.customer_name,
        days: o.days ?? 0,
        tokens: o.tokens,
        reason: o.reason,
        credit: o.credit,
        remaining_balance: o.remaining_balance,
        credit_until: item.credit_until?.toISOString() ?? null,
        total_paid: result.applied.totalPaid,
      },
      'p',
    );
    const tokens = tokenInsertsSql({ orgId, item, generatedBy: w.by, actor: p.actor ?? null, paymentId: w.paymentId }, planned, 'p');
    const delivery = result.recipient ? 'queued' : 'none';
    const reply = Prisma.sql`
      forwarded_message = ${result.text}, recipient_number = ${result.recipient}, amount = ${result.amount}::numeric,
      delivery_status = ${delivery}::"DeliveryStatus", next_attempt_at = NULL, payment_id = ${w.paymentId}::int,
      item_id = ${item.item_id}::int, status = 'processed'::"MessageStatus"`;
    let message: Prisma.Sql;
    if (p.incoming && p.newMessageId && w.finish) {
      // The gateway's request and its reply, written once.
      const stored = json({ parsed: w.finish.parsed, outcome: { ...result.outcome, message_id: p.newMessageId } });
      message = Prisma.sql`INSERT INTO messages (${incomingColumns}, forwarded_message, recipient_number, amount, delivery_status,
                                                payment_id, item_id, status, transaction_code, result)
        SELECT ${incomingValues(p.newMessageId, orgId, p.incoming)}, ${result.text}, ${result.recipient}, ${result.amount}::numeric,
               ${delivery}::"DeliveryStatus", ${w.paymentId}::int, ${item.item_id}::int, 'processed'::"MessageStatus",
               ${w.finish.transactionCode}, ${stored}::jsonb
        FROM p
        RETURNING message_id`;
    } else message =
      p.messageId !== null
        ? Prisma.sql`UPDATE messages SET ${reply}
            ${w.finish
              ? Prisma.sql`, parse_error = NULL, transaction_code = ${w.finish.transactionCode},
                  result = ${json({ parsed: w.finish.parsed, outcome: { ...result.outcome, message_id: p.messageId } })}::jsonb`
              : Prisma.empty}
            WHERE organization_id = ${orgId} AND message_id = ${p.messageId}::int AND EXISTS (SELECT 1 FROM p)
            RETURNING message_id`
        : // Nobody's incoming message: a row with only the outgoing side.
          Prisma.sql`INSERT INTO messages (organization_id, forwarded_message, recipient_number, amount, delivery_status,
                                          next_attempt_at, payment_id, item_id, status)
            SELECT ${orgId}, ${result.text}, ${result.recipient}, ${result.amount}::numeric, ${delivery}::"DeliveryStatus",
                   NULL, ${w.paymentId}::int, ${item.item_id}::int, 'processed'::"MessageStatus" FROM p
            RETURNING message_id`;
    const rows = await run<{ message_id: number }>(Prisma.sql`
      WITH p AS (${w.payment}),
           d AS (UPDATE items SET credit = ${result.applied.credit}::numeric, total_paid = ${result.applied.totalPaid}::numeric,
                                  ${tokenColumnsSql(item)}, updated_at = now()
                 WHERE organization_id = ${orgId} AND item_id = ${item.item_id}::int AND EXISTS (SELECT 1 FROM p) RETURNING 1),
           ${tokens ? Prisma.sql`tl AS (${tokens.logs} RETURNING 1), al AS (${tokens.audits} RETURNING 1), ex AS (${tokens.expire} RETURNING 1),` : Prisma.empty}
           wh AS (${event} RETURNING 1),
           m AS (${message})
      SELECT message_id FROM m`);
    return rows[0] ? { messageId: rows[0].message_id } : null;
  }

  /** The original result of an already recorded transaction code; the receiver's message is marked duplicate. */
  private async replay(run: Run, orgId: string, p: IncomingPayment, finish?: MessageFinish): Promise<PaymentOutcome> {
    const [existing] = await run<{
      id: number;
      amount: Prisma.Decimal;
      item_id: number | null;
      credit_after: Prisma.Decimal | null;
      transaction_code: string | null;
      serial_number: string | null;
      reply: string | null;
      tokens: { token_value: string; token_type: string; days_generated: number; token_count: number }[] | null;
    }>(Prisma.sql`
      SELECT p.payment_id AS id, p.amount, p.item_id, p.credit_after, p.transaction_code, i.serial_number,
             (SELECT forwarded_message FROM messages m WHERE m.organization_id = p.organization_id AND m.payment_id = p.payment_id
                AND m.forwarded_message IS NOT NULL ORDER BY m.message_id LIMIT 1) AS reply,
             (SELECT json_agg(json_build_object('token_value', t.token_value, 'token_type', t.token_type, 'days_generated', t.days_generated,
                                                'token_count', t.token_count) ORDER BY t.token_count)
                FROM token_logs t WHERE t.organization_id = p.organization_id AND t.payment_id = p.payment_id) AS tokens
      FROM payments p
      LEFT JOIN items i ON i.organization_id = p.organization_id AND i.item_id = p.item_id
      WHERE p.organization_id = ${orgId} AND p.transaction_code = ${p.transactionCode}`);
    if (!existing) throw new Error(`payment ${p.transactionCode} conflicted but cannot be read`);
    if (p.source === 'manual' && (existing.item_id !== (p.itemId ?? null) || cents(existing.amount) !== p.amountCents)) {
      throw Errors.conflict(`reference: ${p.transactionCode} was already used for another payment (#${existing.id})`);
    }
    const tokens: IssuedToken[] = (existing.tokens ?? []).map((l) => ({
      token: l.token_value,
      token_type: l.token_type as IssuedToken['token_type'],
      days: Number(l.days_generated),
      token_count: l.token_count,
    }));
    const outcome: PaymentOutcome = {
      status: 'duplicate',
      payment_id: existing.id,
      ...(tokens[0] ? { token: tokens[0].token, days: tokens.reduce((s, t) => s + t.days, 0) } : {}),
      tokens,
      serial_number: existing.serial_number ?? null,
      transaction_code: existing.transaction_code,
      amount: existing.amount.toFixed(2),
      ...(existing.credit_after !== null ? { credit: existing.credit_after.toFixed(2) } : {}),
      reply_message: existing.reply ?? null,
    };
    if (finish && p.messageId !== null) {
      await run(Prisma.sql`
        UPDATE messages SET status = 'duplicate'::"MessageStatus", parse_error = NULL, transaction_code = ${finish.transactionCode},
               amount = ${finish.amount}::numeric, payment_id = ${existing.id}::int,
               result = ${json({ parsed: finish.parsed, outcome: { ...outcome, message_id: p.messageId } })}::jsonb
        WHERE organization_id = ${orgId} AND message_id = ${p.messageId}::int`);
    } else if (finish && p.incoming) {
      const id = p.incoming.id;
      await run(Prisma.sql`
        INSERT INTO messages (${incomingColumns}, status, transaction_code, amount, payment_id, result)
        VALUES (${incomingValues(id, orgId, p.incoming)}, 'duplicate'::"MessageStatus", ${finish.transactionCode}, ${finish.amount}::numeric,
                ${existing.id}::int, ${json({ parsed: finish.parsed, outcome: { ...outcome, message_id: id } })}::jsonb)`);
      return { ...outcome, message_id: id };
    }
    return outcome;
  }
}

export type { Allocation };
