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
} from '@kidogo/mobile-money';
import type { IssuedToken, PaymentMethod, PaymentOutcome } from '@kidogo/contracts';
import { Prisma } from '../generated/prisma/client.js';
import { Errors } from '../common/errors.js';
import type { AuthUser } from '../common/tenancy.js';
import { TokensService, type Tx } from '../tokens/tokens.service.js';

/** One payment as it reaches the pipeline, whatever brought it (SMS, Daraja, statement row, agent). */
export interface IncomingPayment {
  /** Mobile-money code or manual reference: the idempotency key (unique per organization). */
  transactionCode: string | null;
  amountCents: number;
  currency: string | null;
  method: PaymentMethod;
  source: 'sms' | 'daraja' | 'statement' | 'manual';
  accountReference: string | null;
  /** Canonical phone (2547XXXXXXXX) or null. */
  payerPhone: string | null;
  payerName: string | null;
  paidAt: Date;
  /** The incoming message that carried it; the reply is stored on the same row. */
  messageId: number | null;
  recordedBy: string;
  actor?: Pick<AuthUser, 'user_id' | 'username'> | null;
  /** The device, when the caller already knows it (manual payments). */
  itemId?: number;
}

interface PaymentRow {
  id: number;
  amount: Prisma.Decimal;
  currency: string;
  payer_phone: string | null;
  message_id: number | null;
  transaction_code: string | null;
}

const cents = (d: Prisma.Decimal | string | number): number => {
  const c = parseAmountToCents(typeof d === 'number' ? d.toFixed(2) : new Prisma.Decimal(d).toFixed(2));
  if (c === null) throw new Error(`Not an amount: ${String(d)}`);
  return c;
};

/**
 * The loop the product exists for: record a payment once (the transaction
 * code is unique per organization), find its device, apply the payment rules
 * (allocatePayment), issue the tokens through TokensService.issue and queue
 * the reply SMS, all inside the caller's transaction.
 */
@Injectable()
export class PaymentPipeline {
  constructor(private readonly tokens: TokensService) {}

  async record(tx: Tx, orgId: string, p: IncomingPayment): Promise<PaymentOutcome> {
    const amount = formatCents(p.amountCents);
    let paymentId: number;
    if (p.transactionCode) {
      // A concurrent delivery of the same code waits here for the first one to
      // commit, then inserts nothing and replays the original result.
      const rows = await tx.$queryRaw<{ payment_id: number }[]>`
        INSERT INTO payments (organization_id, amount, currency, payment_method, status, transaction_code, reference,
                              account_reference, payer_phone, payer_name, source, message_id, recorded_by, paid_at)
        VALUES (${orgId}, ${amount}::numeric, ${p.currency ?? 'KES'}, ${p.method}, 'pending'::"PaymentStatus",
                ${p.transactionCode}, ${p.source === 'manual' ? p.transactionCode : null}, ${p.accountReference},
                ${p.payerPhone}, ${p.payerName}, ${p.source}, ${p.messageId}::int, ${p.recordedBy}, ${p.paidAt.toISOString()}::timestamptz)
        ON CONFLICT (organization_id, transaction_code) DO NOTHING
        RETURNING payment_id`;
      if (!rows[0]) return this.replay(tx, orgId, p);
      paymentId = rows[0].payment_id;
    } else {
      const row = await tx.payment.create({
        data: {
          organization_id: orgId,
          amount,
          currency: p.currency ?? 'KES',
          payment_method: p.method,
          status: 'pending',
          account_reference: p.accountReference,
          payer_phone: p.payerPhone,
          payer_name: p.payerName,
          source: p.source,
          message_id: p.messageId,
          recorded_by: p.recordedBy,
          paid_at: p.paidAt,
        },
        select: { id: true },
      });
      paymentId = row.id;
    }
    const itemId = p.itemId ?? (await this.findDevice(tx, orgId, p));
    if (itemId === null) {
      return { status: 'unmatched', payment_id: paymentId, transaction_code: p.transactionCode, amount };
    }
    const payment: PaymentRow = {
      id: paymentId,
      amount: new Prisma.Decimal(amount),
      currency: p.currency ?? 'KES',
      payer_phone: p.payerPhone,
      message_id: p.messageId,
      transaction_code: p.transactionCode,
    };
    return this.apply(tx, orgId, paymentId, itemId, { generatedBy: p.recordedBy, actor: p.actor ?? null }, payment);
  }

  /**
   * The device a payment is for: the account reference as a serial number,
   * else as a customer's ID number or phone (when that customer has exactly one
   * device); with no account reference (till and personal receipts), the
   * payer's phone. Null when nothing matches exactly one device.
   */
  async findDevice(tx: Tx, orgId: string, p: Pick<IncomingPayment, 'accountReference' | 'payerPhone'>): Promise<number | null> {
    const raw = p.accountReference?.trim() ?? '';
    const ref = normalizeAccountRef(raw);
    if (ref) {
      const serials = [...new Set([ref, raw.toUpperCase().replace(/[\s-]/g, '')])];
      const items = await tx.item.findMany({
        where: { organization_id: orgId, serial_normalized: { in: serials }, status: { not: 'retired' } },
        select: { id: true },
        take: 2,
      });
      if (items.length === 1) return items[0]!.id;
      if (items.length > 1) return null;
      const phone = normalizePhone(raw);
      const customers = await tx.customer.findMany({
        where: {
          organization_id: orgId,
          OR: [{ id_number: { in: [...new Set([raw, ref])] } }, ...(phone ? [{ phone_normalized: phone }] : [])],
        },
        select: { id: true },
        take: 2,
      });
      return customers.length === 1 ? this.onlyDeviceOf(tx, orgId, customers[0]!.id) : null;
    }
    if (!p.payerPhone) return null;
    const customers = await tx.customer.findMany({
      where: { organization_id: orgId, phone_normalized: p.payerPhone },
      select: { id: true },
      take: 2,
    });
    return customers.length === 1 ? this.onlyDeviceOf(tx, orgId, customers[0]!.id) : null;
  }

  private async onlyDeviceOf(tx: Tx, orgId: string, customerId: number): Promise<number | null> {
    const items = await tx.item.findMany({
      where: { organization_id: orgId, customer_id: customerId, status: { not: 'retired' } },
      select: { id: true },
      take: 2,
    });
    return items.length === 1 ? items[0]!.id : null;
  }

  /** Applies a recorded (pending) payment to a device: rules, tokens, balances, reply SMS. */
  async apply(
    tx: Tx,
    orgId: string,
    paymentId: number,
    itemId: number,
    by: { generatedBy: string; actor: Pick<AuthUser, 'user_id' | 'username'> | null },
    known?: PaymentRow,
  ): Promise<PaymentOutcome> {
    const item = await this.tokens.lockItem(tx, orgId, itemId);
    if (item.status === 'retired') throw Errors.conflict(`Device ${item.serial_number} is retired: it cannot take payments`);
    const payment =
      known ??
      (await tx.payment.findUniqueOrThrow({
        where: { organization_id_id: { organization_id: orgId, id: paymentId } },
        select: { id: true, amount: true, currency: true, payer_phone: true, message_id: true, transaction_code: true },
      }));
    // The customer's active plan (at most one: template_assignments_one_active), in one query.
    const tpl = item.customer_id
      ? await tx.paymentTemplate.findFirst({
          where: {
            organization_id: orgId,
            assignments: { some: { organization_id: orgId, customer_id: item.customer_id, is_active: true } },
          },
        })
      : null;
    const settings = await this.tokens.settingsFor(tx, orgId, item.product_oem);
    let template: AllocationTemplate | null = null;
    if (tpl && cents(tpl.daily_price) > 0) {
      template = {
        depositCents: cents(tpl.deposit_made),
        activationPriceCents: cents(tpl.activation_price),
        dailyPriceCents: cents(tpl.daily_price),
        gracePeriodDays: tpl.grace_period_days,
        freeCodePriceCents: tpl.free_code_price === null ? null : cents(tpl.free_code_price),
        maxDaysPerToken: Math.max(1, settings.maxDaysPerToken),
      };
    }
    const priceCents = cents(item.price);
    const allocation = allocatePayment({
      amountCents: cents(payment.amount),
      device: {
        creditCents: cents(item.credit),
        totalPaidCents: cents(item.total_paid),
        activated: item.activated_at !== null,
        // A device without a price (0) has no payoff price of its own.
        priceCents: priceCents > 0 ? priceCents : null,
      },
      template,
    });

    const issued: IssuedToken[] = [];
    for (const [i, t] of allocation.tokens.entries()) {
      const token = await this.tokens.issue(tx, {
        orgId,
        itemId,
        type: t.type,
        days: t.days,
        generatedBy: by.generatedBy,
        actor: by.actor,
        paymentId,
        amountPaid: i === 0 ? payment.amount.toFixed(2) : null,
        locked: item,
      });
      issued.push({ token: token.code_token, token_type: token.code_type, days: token.days, token_count: token.token_count });
    }

    const credit = formatCents(allocation.newCreditCents);
    await tx.item.update({
      where: { organization_id_id: { organization_id: orgId, id: itemId } },
      data: { credit, total_paid: formatCents(allocation.newTotalPaidCents) },
    });
    const currency = tpl?.currency ?? payment.currency;
    await tx.payment.update({
      where: { organization_id_id: { organization_id: orgId, id: paymentId } },
      data: {
        item_id: itemId,
        customer_id: item.customer_id,
        status: 'completed',
        days_bought: allocation.daysBought,
        credit_after: credit,
        currency,
      },
    });

    const remaining = allocation.remainingToPayOffCents === null ? null : formatCents(allocation.remainingToPayOffCents);
    const text = formatPaymentReply({
      amount: payment.amount.toFixed(2),
      currency,
      serialNumber: item.serial_number,
      tokens: allocation.tokens.map((t, i) => ({ type: t.type, days: t.days, token: issued[i]!.token })),
      creditLeft: credit,
      remainingBalance: remaining,
      customerName: item.customer_name,
      reason: allocation.reason,
      remainingToActivate: allocation.remainingToActivateCents > 0 ? formatCents(allocation.remainingToActivateCents) : null,
    });
    const recipient =
      payment.payer_phone ?? item.customer_phone_normalized ?? (item.customer_phone ? normalizePhone(item.customer_phone) : null);
    const messageId = await this.queueReply(tx, orgId, {
      messageId: payment.message_id,
      paymentId,
      itemId,
      text,
      recipient,
      amount: payment.amount.toFixed(2),
    });
    return outcome('processed', payment, item.serial_number, allocation, issued, remaining, text, messageId);
  }

  /** The reply goes on the incoming message's row; a payment without one gets a row with only the outgoing side. */
  private async queueReply(
    tx: Tx,
    orgId: string,
    r: { messageId: number | null; paymentId: number; itemId: number; text: string; recipient: string | null; amount: string },
  ): Promise<number> {
    const data = {
      forwarded_message: r.text,
      recipient_number: r.recipient,
      amount: r.amount,
      // Nobody to send to (no payer phone, no customer): kept as history only.
      delivery_status: r.recipient ? ('queued' as const) : ('none' as const),
      next_attempt_at: null,
      payment_id: r.paymentId,
      item_id: r.itemId,
      status: 'processed' as const,
    };
    if (r.messageId !== null) {
      await tx.message.update({ where: { organization_id_id: { organization_id: orgId, id: r.messageId } }, data });
      return r.messageId;
    }
    const row = await tx.message.create({ data: { organization_id: orgId, ...data }, select: { id: true } });
    return row.id;
  }

  /** The original result of an already recorded transaction code. */
  private async replay(tx: Tx, orgId: string, p: IncomingPayment): Promise<PaymentOutcome> {
    const existing = await tx.payment.findUniqueOrThrow({
      where: { organization_id_transaction_code: { organization_id: orgId, transaction_code: p.transactionCode! } },
      select: {
        id: true,
        amount: true,
        status: true,
        item_id: true,
        credit_after: true,
        transaction_code: true,
        item: { select: { serial_number: true } },
        token_logs: { where: { organization_id: orgId }, orderBy: { token_count: 'asc' } },
      },
    });
    if (p.source === 'manual' && (existing.item_id !== (p.itemId ?? null) || cents(existing.amount) !== p.amountCents)) {
      throw Errors.conflict(`reference: ${p.transactionCode} was already used for another payment (#${existing.id})`);
    }
    const reply = await tx.message.findFirst({
      where: { organization_id: orgId, payment_id: existing.id, forwarded_message: { not: null } },
      orderBy: { id: 'asc' },
      select: { forwarded_message: true },
    });
    const tokens: IssuedToken[] = existing.token_logs.map((l) => ({
      token: l.token_value,
      token_type: l.token_type,
      days: Number(l.days_generated),
      token_count: l.token_count,
    }));
    return {
      status: 'duplicate',
      payment_id: existing.id,
      ...(tokens[0] ? { token: tokens[0].token, days: tokens.reduce((s, t) => s + t.days, 0) } : {}),
      tokens,
      serial_number: existing.item?.serial_number ?? null,
      transaction_code: existing.transaction_code,
      amount: existing.amount.toFixed(2),
      ...(existing.credit_after !== null ? { credit: existing.credit_after.toFixed(2) } : {}),
      reply_message: reply?.forwarded_message ?? null,
    };
  }
}

function outcome(
  status: 'processed',
  payment: PaymentRow,
  serial: string,
  a: Allocation,
  tokens: IssuedToken[],
  remaining: string | null,
  text: string,
  messageId: number,
): PaymentOutcome {
  return {
    status,
    message_id: messageId,
    payment_id: payment.id,
    ...(tokens[0] ? { token: tokens[0].token, days: tokens.reduce((s, t) => s + t.days, 0) } : {}),
    tokens,
    reason: a.reason,
    serial_number: serial,
    transaction_code: payment.transaction_code,
    amount: payment.amount.toFixed(2),
    credit: formatCents(a.newCreditCents),
    remaining_balance: remaining,
    reply_message: text,
  };
}
