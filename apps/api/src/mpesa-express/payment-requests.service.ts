import { Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import {
  AIRTEL_MONEY_MAX_AMOUNT,
  MPESA_EXPRESS_ACCOUNT_REFERENCE_MAX,
  MPESA_EXPRESS_EXPIRES_AFTER_S,
  MPESA_EXPRESS_MAX_AMOUNT,
  MTN_MOMO_MAX_AMOUNT,
  PAYMENT_REQUEST_PROVIDER_LABELS,
  PORTAL_PAY_PER_HOUR,
  WHOLE_CURRENCIES,
  airtelMoneyCountryOf,
  mpesaPhone,
  mtnMomoTargetOf,
  normalizeSerial,
  type AirtelMoneyCallback,
  type AirtelMoneyCallbackReply,
  type MpesaExpressCallback,
  type MpesaExpressCallbackReply,
  type MtnMomoCallback,
  type MtnMomoCallbackReply,
  type PaymentRequest,
  type PaymentRequestProvider,
  type PaymentRequestProvidersReply,
  type PaymentRequestReply,
  type PaymentRequestsReply,
  type PortalPayWith,
  type PaymentRequestStatus,
  type ZPaymentRequestInputSchema,
  type ZPaymentRequestsQuerySchema,
} from '@kidogo/contracts';
import { normalizePhone } from '@kidogo/mobile-money';
import type { z } from 'zod';
import { Prisma } from '../generated/prisma/client.js';
import { DatabaseService } from '../database/database.service.js';
import { Calendar } from '../common/calendar.js';
import { Errors } from '../common/errors.js';
import { randomToken } from '../common/crypto.js';
import { pagePagination } from '../common/pagination.js';
import type { AuthUser } from '../common/tenancy.js';
import { userNotificationSql } from '../notifications/inbox-sql.js';
import { ReceiverService } from '../receiver/receiver.service.js';
import { phoneCountry } from '../customers/phone-country.js';
import { DarajaClient, DarajaError } from './daraja.js';
import { MpesaExpressSettingsService } from './mpesa-express-settings.service.js';
import { MomoClient, MomoError, momoStatusOf, type MomoStatus } from './mtn-momo.js';
import { MtnMomoSettingsService } from './mtn-momo-settings.service.js';
import { AirtelError, AirtelMoneyClient, airtelTransactionId, type AirtelStatus } from './airtel-money.js';
import { AirtelMoneySettingsService } from './airtel-money-settings.service.js';

/** M-Pesa's result codes for an STK push, in words staff can act on (others: M-Pesa's own ResultDesc). */
const RESULT_TEXT: Record<number, string> = {
  1: "The customer's M-Pesa balance was too low",
  1001: 'The customer had another M-Pesa payment under way: try again in a minute',
  1019: 'The prompt expired before the customer answered',
  1025: 'M-Pesa could not show the prompt: try again',
  1032: 'The customer cancelled the prompt',
  1037: "The customer's phone could not be reached (off or out of network), or they did not answer in time",
  2001: 'The customer entered a wrong M-Pesa PIN',
  9999: 'M-Pesa could not show the prompt: try again',
};

/** MTN MoMo's reasons for a request to pay not paid, in words staff can act on (others: MTN's own code). */
const MOMO_REASON_TEXT: Record<string, string> = {
  APPROVAL_REJECTED: 'The customer declined the payment',
  TRANSACTION_CANCELED: 'The customer cancelled the payment',
  EXPIRED: 'The prompt expired before the customer answered',
  NOT_ENOUGH_FUNDS: "The customer's MoMo balance was too low",
  PAYER_LIMIT_REACHED: "The customer's MoMo account has reached its limit",
  PAYER_NOT_FOUND: 'The phone number has no MTN MoMo account',
  PAYEE_NOT_FOUND: "MTN does not know your organization's account: check the API user in Settings → MTN MoMo",
  PAYEE_NOT_ALLOWED_TO_RECEIVE: 'MTN did not let your account receive the payment: ask MTN to check your Collections subscription',
  NOT_ALLOWED: 'MTN did not allow the payment: ask MTN to check your Collections subscription',
  NOT_ALLOWED_TARGET_ENVIRONMENT: 'MTN does not allow your API user in this market: check the market in Settings → MTN MoMo',
  INVALID_CURRENCY: 'MTN does not take this money in this market',
  INTERNAL_PROCESSING_ERROR: 'MTN MoMo could not take the payment: try again',
  SERVICE_UNAVAILABLE: 'MTN MoMo could not take the payment: try again',
  COULD_NOT_PERFORM_TRANSACTION: 'MTN MoMo could not take the payment: try again',
  RESOURCE_NOT_FOUND: 'MTN has no record of this request: it never reached the customer',
};
/** Airtel Money's reasons for a USSD push not paid (its response codes), in words staff can act on (others: Airtel's own message). */
const AIRTEL_REASON_TEXT: Record<string, string> = {
  DP00800001002: 'The customer entered a wrong Airtel Money PIN',
  DP00800001003: "The payment is over the customer's Airtel Money limit",
  DP00800001004: 'Airtel Money did not take the amount',
  DP00800001005: 'Airtel Money did not take the request: try again',
  DP00800001007: "The customer's Airtel Money balance was too low",
  DP00800001008: 'The customer declined the payment',
  DP00800001010: 'Airtel did not let your account receive the payment: ask Airtel to check your Collections product',
  DP00800001024: 'The prompt expired before the customer answered',
  DP00800001025: 'Airtel has no record of this request: it never reached the customer',
  DP00800001026: "Airtel refused Kidogo's call: check the app's products in the Airtel portal",
  DP00800001029: 'The prompt expired before the customer answered',
  TE: 'The prompt expired before the customer answered',
  TF: 'Airtel Money did not take the payment',
};
/** MTN's and Airtel's reasons that are the customer saying no. */
const DECLINED = new Set(['APPROVAL_REJECTED', 'TRANSACTION_CANCELED', 'DP00800001008']);

const label = (provider: string) => PAYMENT_REQUEST_PROVIDER_LABELS[provider as PaymentRequestProvider] ?? provider;

/** How each provider is named in what staff read, and how its customers say yes. */
const WORDS: Record<PaymentRequestProvider, { name: string; company: string; pin: string; pending: string; reasons: Record<string, string> }> = {
  mpesa_express: { name: 'M-Pesa', company: 'M-Pesa', pin: 'M-Pesa PIN', pending: 'Waiting for the customer to enter their M-Pesa PIN', reasons: {} },
  mtn_momo: { name: 'MTN MoMo', company: 'MTN', pin: 'MoMo PIN', pending: 'Waiting for the customer to approve with their MoMo PIN', reasons: MOMO_REASON_TEXT },
  airtel_money: {
    name: 'Airtel Money',
    company: 'Airtel',
    pin: 'Airtel Money PIN',
    pending: 'Waiting for the customer to approve with their Airtel Money PIN',
    reasons: AIRTEL_REASON_TEXT,
  },
};
const providerOf = (p: string): PaymentRequestProvider => (p === 'mtn_momo' || p === 'airtel_money' ? p : 'mpesa_express');
const words = (p: string) => WORDS[providerOf(p)];

/** A request M-Pesa said was paid when asked (its query carries no receipt), before the receipt reached Kidogo. */
const PAID_NO_RECEIPT =
  "Paid: M-Pesa says the customer paid, but its receipt has not reached Kidogo yet. The payment is applied when M-Pesa's result, " +
  'the paybill confirmation, the forwarded SMS or your M-Pesa statement brings it; or record it with the receipt from the customer\'s SMS';

interface RequestRow {
  request_id: number;
  provider: string;
  currency: string;
  item_id: number;
  serial_number: string;
  customer_id: number | null;
  customer_name: string | null;
  phone_number: string;
  amount: string;
  status: string;
  result_code: number | null;
  result_desc: string | null;
  answered_by: string | null;
  mpesa_receipt: string | null;
  payment_id: number | null;
  payment_outcome: string | null;
  payment_reason: string | null;
  days: number | null;
  token: string | null;
  requested_by: string | null;
  requester_id: number | null;
  from_customer_page: boolean;
  created_at: Date;
  completed_at: Date | null;
  expired: boolean;
}

const SELECT = Prisma.sql`
  SELECT r.request_id, r.provider, r.currency, r.item_id, i.serial_number, r.customer_id, c.customer_name, r.phone_number, r.amount::text AS amount,
         r.status, r.result_code, r.result_desc, r.answered_by, r.mpesa_receipt, r.payment_id, r.payment_outcome, r.payment_reason, r.days, r.token,
         u.username AS requested_by, r.requested_by AS requester_id, r.from_customer_page, r.created_at, r.completed_at,
         (r.status = 'pending' AND r.created_at < now() - make_interval(secs => ${MPESA_EXPRESS_EXPIRES_AFTER_S})) AS expired
  FROM payment_requests r
  JOIN items i ON i.organization_id = r.organization_id AND i.item_id = r.item_id
  LEFT JOIN customers c ON c.organization_id = r.organization_id AND c.customer_id = r.customer_id
  LEFT JOIN users u ON u.user_id = r.requested_by`;

function statusOf(r: RequestRow): PaymentRequestStatus {
  if (r.status === 'pending') return r.expired ? 'expired' : 'pending';
  return r.status === 'paid' || r.status === 'cancelled' ? r.status : 'failed';
}

function statusText(r: RequestRow, status: PaymentRequestStatus): string {
  switch (status) {
    case 'pending':
      return words(r.provider).pending;
    case 'expired':
      return `No answer from ${words(r.provider).name} within ${MPESA_EXPRESS_EXPIRES_AFTER_S / 60} minutes: the customer did not pay`;
    case 'paid':
      if (r.provider !== 'mpesa_express') return `Paid, ${words(r.provider).name} transaction ${r.mpesa_receipt ?? '(no id given)'}${paidWhat(r)}`;
      return r.mpesa_receipt ? `Paid, M-Pesa receipt ${r.mpesa_receipt}${paidWhat(r)}` : PAID_NO_RECEIPT;
    default:
      if (r.provider !== 'mpesa_express') {
        return (r.result_desc && words(r.provider).reasons[r.result_desc]) || r.result_desc || `${words(r.provider).name} did not take the payment`;
      }
      return (r.result_code !== null && RESULT_TEXT[r.result_code]) || r.result_desc || 'M-Pesa did not take the payment';
  }
}

/** What a paid request's payment became, in the words staff repeat to the customer (as Record Payment says it). */
function paidWhat(r: RequestRow): string {
  if (r.payment_outcome === null) return ': the payment is being recorded';
  if (r.payment_outcome === 'unmatched') return ': the payment is held for staff to match (Held Payments)';
  if (r.payment_outcome !== 'processed' && r.payment_outcome !== 'duplicate') return '';
  if (r.days) return `: ${r.days} day${r.days === 1 ? '' : 's'} of credit`;
  switch (r.payment_reason) {
    case 'below_activation':
      return ': not enough yet to activate the device, kept as credit until the deposit and activation price are paid';
    case 'below_daily_price':
      return ": less than one day's price, carried as credit to the next payment";
    case 'no_template':
      return ': the device has no payment plan, kept as credit';
    case 'paid_off':
      return ': the device is paid off';
    default:
      return '';
  }
}

function toRequest(r: RequestRow): PaymentRequest {
  const status = statusOf(r);
  return {
    request_id: r.request_id,
    provider: providerOf(r.provider),
    item_id: r.item_id,
    serial_number: r.serial_number,
    customer_id: r.customer_id,
    customer_name: r.customer_name,
    phone_number: r.phone_number,
    amount: r.amount,
    currency: r.currency,
    status,
    status_text: statusText(r, status),
    result_code: r.result_code,
    result_desc: r.result_desc,
    answered_by: r.answered_by === 'callback' || r.answered_by === 'check' ? r.answered_by : null,
    receipt: r.mpesa_receipt,
    mpesa_receipt: r.provider === 'mpesa_express' ? r.mpesa_receipt : null,
    payment_id: r.payment_id,
    payment_outcome: r.payment_outcome,
    payment_reason: r.payment_reason,
    days: r.days,
    token: r.token,
    requested_by: r.requested_by,
    from_customer_page: r.from_customer_page,
    created_at: r.created_at.toISOString(),
    completed_at: r.completed_at?.toISOString() ?? null,
  };
}

/** A callback's metadata item by name (Amount, MpesaReceiptNumber, TransactionDate, PhoneNumber). */
function item(cb: MpesaExpressCallback['Body']['stkCallback'], name: string): string | null {
  const v = cb.CallbackMetadata?.Item.find((i) => i.Name === name)?.Value;
  return v === undefined || v === null || String(v).trim() === '' ? null : String(v).trim();
}

/** One request on its way out by one provider (PaymentRequestsService.sender). */
interface Sender {
  currency: string;
  /** The market the prompted phone must be in, or null when any number goes (M-Pesa's are checked by the schema; MTN's sandbox). */
  market: { name: string; callingCode: string } | null;
  callbackToken: string;
  /** The provider's name for the request when Kidogo gives it (checkout_request_id): MTN's X-Reference-Id, Airtel's transaction id. */
  reference: string | null;
  send(created: { id: number; serial: string; phone: string }, amount: number): Promise<void>;
}

/**
 * M-Pesa Express requests (README "Asking a customer to pay"): staff ask a
 * device's customer to pay; Safaricom prompts their phone and posts the
 * result to a URL only this request knows. A paid request goes through the
 * receiver as a Daraja confirmation, so it is recorded once by its receipt
 * (whichever of the callback, the C2B confirmation or the forwarded SMS comes
 * first), with the days, tokens, reply SMS and webhooks of any payment.
 */
@Injectable()
export class PaymentRequestsService {
  private readonly logger = new Logger('MpesaExpress');

  constructor(
    private readonly database: DatabaseService,
    private readonly settings: MpesaExpressSettingsService,
    private readonly daraja: DarajaClient,
    private readonly momoSettings: MtnMomoSettingsService,
    private readonly momo: MomoClient,
    private readonly airtelSettings: AirtelMoneySettingsService,
    private readonly airtel: AirtelMoneyClient,
    private readonly receiver: ReceiverService,
    private readonly calendar: Calendar,
  ) {}

  private clock(t: Date): string {
    return new Intl.DateTimeFormat('en-GB', { timeZone: this.calendar.zone, hour: '2-digit', minute: '2-digit', hour12: false }).format(t);
  }

  private async one(orgId: string, id: number): Promise<PaymentRequest> {
    const [row] = await this.database.query<RequestRow>(Prisma.sql`${SELECT} WHERE r.organization_id = ${orgId} AND r.request_id = ${id}::int`);
    if (!row) throw Errors.notFound('Payment request');
    return toRequest(row);
  }

  async get(orgId: string, id: number): Promise<PaymentRequestReply> {
    return { data: await this.one(orgId, id) };
  }

  async list(orgId: string, q: z.output<typeof ZPaymentRequestsQuerySchema>): Promise<PaymentRequestsReply> {
    const where = [Prisma.sql`r.organization_id = ${orgId}`];
    if (q.serial_number) {
      where.push(Prisma.sql`r.item_id IN (SELECT item_id FROM items WHERE organization_id = ${orgId} AND serial_normalized = ${normalizeSerial(q.serial_number)})`);
    }
    if (q.customer_id !== undefined) where.push(Prisma.sql`r.customer_id = ${q.customer_id}::int`);
    const filter = Prisma.join(where, ' AND ');
    const [rows, [count]] = await Promise.all([
      this.database.query<RequestRow>(Prisma.sql`${SELECT} WHERE ${filter} ORDER BY r.request_id DESC LIMIT ${q.limit}::int OFFSET ${(q.page - 1) * q.limit}::int`),
      this.database.query<{ n: number }>(Prisma.sql`SELECT count(*)::int AS n FROM payment_requests r WHERE ${filter}`),
    ]);
    return { data: { items: rows.map(toRequest), pagination: pagePagination(count!.n, q.page, q.limit) } };
  }

  /**
   * How a request goes out by each provider: its money, the market its phones must be of (none: M-Pesa's Kenyan
   * numbers are checked by the input schema), the request's own names (its callback token; MTN's X-Reference-Id and
   * Airtel's transaction id, set before it is sent so that a result that comes at once finds it), and the call.
   */
  private async sender(orgId: string, provider: PaymentRequestProvider): Promise<Sender> {
    if (provider === 'mtn_momo') {
      const { account, callbackBase } = await this.momoSettings.account(orgId);
      const market = mtnMomoTargetOf(account.target)!;
      const callbackToken = randomToken(24);
      const referenceId = randomUUID();
      return {
        currency: account.currency,
        market: market.calling_code ? { name: market.country, callingCode: market.calling_code } : null,
        callbackToken,
        reference: referenceId,
        send: (c, amount) =>
          this.momo.requestToPay(account, {
            referenceId,
            amount: Number.isInteger(amount) ? String(amount) : amount.toFixed(2),
            phone: c.phone,
            externalId: c.serial,
            payerMessage: `Pay ${c.serial}`.slice(0, 160),
            payeeNote: `Kidogo request ${c.id} for ${c.serial}`.slice(0, 160),
            callbackUrl: `${callbackBase}${callbackToken}`,
          }),
      };
    }
    if (provider === 'airtel_money') {
      const { account } = await this.airtelSettings.account(orgId);
      const market = airtelMoneyCountryOf(account.country)!;
      // Airtel names the transaction by Kidogo's id in its callback, which comes to one address for the whole app.
      const transactionId = airtelTransactionId();
      return {
        currency: account.currency,
        market: { name: market.name, callingCode: market.calling_code },
        callbackToken: transactionId,
        reference: transactionId,
        send: (c, amount) =>
          this.airtel.ussdPush(account, { transactionId, amount, msisdn: c.phone.slice(market.calling_code.length), reference: c.serial.slice(0, 64) }),
      };
    }
    const { account, callbackBase } = await this.settings.account(orgId);
    const callbackToken = randomToken(24);
    return {
      currency: 'KES',
      market: null,
      callbackToken,
      reference: null,
      send: async (c, amount) => {
        const accepted = await this.daraja.stkPush(account, {
          phone: c.phone,
          amount,
          accountReference: c.serial.slice(0, MPESA_EXPRESS_ACCOUNT_REFERENCE_MAX),
          description: `Pay ${c.serial}`.slice(0, 13),
          callbackUrl: `${callbackBase}${callbackToken}`,
        });
        await this.database.query(Prisma.sql`
          UPDATE payment_requests SET merchant_request_id = ${accepted.merchantRequestId}, checkout_request_id = ${accepted.checkoutRequestId}
          WHERE organization_id = ${orgId} AND request_id = ${c.id}::int`);
      },
    };
  }

  /**
   * Sends a request: the row first (one device waits for one answer at a time, checked under the device's lock),
   * then the provider, outside any transaction. A refusal is kept on the request as failed, and answered 502.
   * `actor` null is the customer asking from their own page (`customer`: only their devices, the phone on file, a
   * device not yet paid off, at most PORTAL_PAY_PER_HOUR requests an hour).
   */
  async create(
    orgId: string,
    input: z.output<typeof ZPaymentRequestInputSchema>,
    actor: AuthUser | null,
    customer: number | null = null,
    /** Where a customer asked from (actor null): their own page, or the USSD menu. */
    via: 'page' | 'ussd' = 'page',
  ): Promise<PaymentRequestReply> {
    const out = await this.sender(orgId, input.provider);
    const { currency } = out;
    if (WHOLE_CURRENCIES.includes(currency) && !Number.isInteger(input.amount)) {
      throw Errors.badRequest('amount', `must be whole ${currency} (it has no cents)`);
    }
    const provider = label(input.provider);
    const created = await this.database.transaction(async (run) => {
      const [device] = await run<{
        item_id: number;
        serial_number: string;
        customer_id: number | null;
        customer_name: string | null;
        phone_contact: string | null;
        paid_off: boolean;
      }>(Prisma.sql`
        SELECT i.item_id, i.serial_number, i.customer_id, c.customer_name, c.phone_contact, i.paid_off_at IS NOT NULL AS paid_off
        FROM items i LEFT JOIN customers c ON c.organization_id = i.organization_id AND c.customer_id = i.customer_id
        WHERE i.organization_id = ${orgId} AND i.serial_normalized = ${normalizeSerial(input.serial_number)}
        FOR UPDATE OF i`);
      if (!device || (customer !== null && device.customer_id !== customer)) throw Errors.notFound('Device');
      if (customer !== null) await this.customerMayAsk(run, orgId, customer, device, via);
      if (device.customer_id === null) {
        throw Errors.conflict(`Device ${device.serial_number} has no customer: only a device's customer can be asked to pay for it`);
      }
      const phone =
        input.provider === 'mpesa_express'
          ? this.mpesaPhoneOf(input.phone_number ?? null, device)
          : await this.marketPhone(run, orgId, input.phone_number ?? null, device, out.market, provider);
      const [waiting] = await run<{ request_id: number; created_at: Date }>(Prisma.sql`
        SELECT request_id, created_at FROM payment_requests
        WHERE organization_id = ${orgId} AND item_id = ${device.item_id}::int AND status = 'pending'
          AND created_at >= now() - make_interval(secs => ${MPESA_EXPRESS_EXPIRES_AFTER_S})
        ORDER BY request_id DESC LIMIT 1`);
      if (waiting) {
        const until = new Date(waiting.created_at.getTime() + MPESA_EXPRESS_EXPIRES_AFTER_S * 1000);
        throw Errors.conflict(
          `A payment request for ${device.serial_number} sent at ${this.clock(waiting.created_at)} is still waiting for the customer: wait for their answer, or until ${this.clock(until)}`,
        );
      }
      const [row] = await run<{ request_id: number }>(Prisma.sql`
        INSERT INTO payment_requests (organization_id, item_id, customer_id, phone_number, amount, provider, currency, callback_token, checkout_request_id, requested_by,
                                      from_customer_page)
        VALUES (${orgId}, ${device.item_id}::int, ${device.customer_id}::int, ${phone}, ${input.amount}::numeric, ${input.provider}, ${currency}, ${out.callbackToken},
                ${out.reference}, ${actor?.user_id ?? null}::int, ${actor === null})
        RETURNING request_id`);
      const description = actor
        ? `${actor.username} asked ${device.customer_name} (${phone}) to pay ${currency} ${input.amount} for ${device.serial_number} by ${provider}`
        : `${device.customer_name} asked ${via === 'ussd' ? 'by USSD' : 'from their own page'} for ${phone} to pay ${currency} ${input.amount} for ${device.serial_number} by ${provider}`;
      await run(Prisma.sql`
        INSERT INTO audit_logs (organization_id, actor_user_id, actor_username, action, entity_type, entity_id, description, metadata)
        VALUES (${orgId}, ${actor?.user_id ?? null}::int, ${actor?.username ?? null}, 'payment_request.sent', 'payment_request', ${String(row!.request_id)}, ${description},
                ${JSON.stringify({ serial_number: device.serial_number, item_id: device.item_id, customer_id: device.customer_id, phone_number: phone, amount: input.amount, provider: input.provider, currency, from_customer_page: actor === null, ...(actor === null ? { via } : {}) })}::jsonb)`);
      return { id: row!.request_id, serial: device.serial_number, phone };
    });

    try {
      await out.send(created, input.amount);
    } catch (e) {
      const said = e instanceof DarajaError || e instanceof MomoError || e instanceof AirtelError ? e.message : 'an unexpected error';
      const who = words(input.provider).company;
      this.logger.warn(`request ${orgId}/${created.id}: ${who} refused: ${(e as Error).message}`);
      await this.database.query(Prisma.sql`
        UPDATE payment_requests SET status = 'failed', result_desc = ${`${who} refused the request: ${said}`.slice(0, 500)}, completed_at = now()
        WHERE organization_id = ${orgId} AND request_id = ${created.id}::int AND status = 'pending'`);
      throw Errors.badGateway(`${who} refused the request: ${said}`);
    }
    return {
      data: await this.one(orgId, created.id),
      message: `Payment request sent to ${created.phone}: the customer confirms with their ${words(input.provider).pin}`,
    };
  }

  /**
   * What a customer asking from their own page may not do: pay a device already paid off, or send more than
   * PORTAL_PAY_PER_HOUR requests an hour (their phone is the one prompted, but anyone holding the link can press the
   * button).
   */
  private async customerMayAsk(
    run: Parameters<Parameters<DatabaseService['transaction']>[0]>[0],
    orgId: string,
    customer: number,
    device: { serial_number: string; paid_off: boolean },
    via: 'page' | 'ussd',
  ) {
    if (device.paid_off) throw Errors.conflict(`Device ${device.serial_number} is paid off: it needs no more payments`);
    const [recent] = await run<{ n: number; first: Date | null }>(Prisma.sql`
      SELECT count(*)::int AS n, min(created_at) AS first FROM payment_requests
      WHERE organization_id = ${orgId} AND customer_id = ${customer}::int AND from_customer_page AND created_at > now() - interval '1 hour'`);
    if (recent && recent.n >= PORTAL_PAY_PER_HOUR && recent.first) {
      const wait = Math.max(60, Math.ceil((recent.first.getTime() + 3600_000 - Date.now()) / 1000));
      throw Errors.tooMany(`At most ${PORTAL_PAY_PER_HOUR} payments can be asked for ${via === 'ussd' ? 'by USSD' : 'from this page'} in an hour: try again in ${Math.ceil(wait / 60)} minutes`, wait);
    }
  }

  /**
   * The ways a customer can pay from their own page: the ready providers whose market the phone on file is in (a
   * Kenyan M-Pesa number for M-Pesa Express). None without a phone.
   */
  async payWith(orgId: string, phone: string | null): Promise<PortalPayWith[]> {
    if (!phone) return [];
    const ready = (await this.providers(orgId)).data.filter((p) => p.ready);
    if (!ready.length) return [];
    const country = await phoneCountry(this.database.query.bind(this.database), orgId);
    const fits = await Promise.all(
      ready.map(async (p) => {
        if (p.provider === 'mpesa_express') return mpesaPhone(phone) !== null;
        const { market } = await this.sender(orgId, p.provider);
        const number = normalizePhone(phone, country);
        return number !== null && (!market || number.startsWith(market.callingCode));
      }),
    );
    return ready.filter((_, i) => fits[i]).map(({ provider, label: name, currency, decimals, max_amount }) => ({ provider, label: name, currency, decimals, max_amount }));
  }

  /** The phone M-Pesa Express prompts: the one given (already checked), else the customer's, when it is a Kenyan M-Pesa number. */
  private mpesaPhoneOf(given: string | null, device: { customer_name: string | null; phone_contact: string | null }): string {
    if (given) return given;
    const phone = device.phone_contact ? mpesaPhone(device.phone_contact) : null;
    if (phone) return phone;
    throw Errors.badRequest(
      'phone_number',
      device.phone_contact
        ? `is required: ${device.customer_name}'s phone ${device.phone_contact} is not a Kenyan M-Pesa number`
        : `is required: ${device.customer_name} has no phone number`,
    );
  }

  /**
   * The phone MTN or Airtel prompts: the one given, else the customer's, read with the organization's phone country,
   * and a number of the market set up (any number in MTN's sandbox, which has no market).
   */
  private async marketPhone(
    run: Parameters<Parameters<DatabaseService['transaction']>[0]>[0],
    orgId: string,
    given: string | null,
    device: { customer_name: string | null; phone_contact: string | null },
    market: Sender['market'],
    provider: string,
  ): Promise<string> {
    const country = await phoneCountry(run, orgId);
    const raw = given ?? device.phone_contact;
    if (!raw) throw Errors.badRequest('phone_number', `is required: ${device.customer_name} has no phone number`);
    const phone = normalizePhone(raw, country);
    const whose = given ? 'is' : `is required: ${device.customer_name}'s phone ${raw} is`;
    if (!phone) throw Errors.badRequest('phone_number', `${whose} not a phone number`);
    if (market && !phone.startsWith(market.callingCode)) {
      throw Errors.badRequest('phone_number', `${whose} not a number in ${market.name} (+${market.callingCode}), where your ${provider} is set up`);
    }
    return phone;
  }

  /** The organization's ways to ask a customer to pay, whether each is ready, and in what money. */
  async providers(orgId: string): Promise<PaymentRequestProvidersReply> {
    const [mpesa, momo, airtel] = await Promise.all([this.settings.read(orgId), this.momoSettings.status(orgId), this.airtelSettings.status(orgId)]);
    const market = (provider: 'mtn_momo' | 'airtel_money', s: typeof momo, max: number) => ({
      provider,
      label: label(provider),
      ready: s.ready,
      problem: s.problem,
      currency: s.currency,
      max_amount: max,
      decimals: !WHOLE_CURRENCIES.includes(s.currency),
    });
    return {
      data: [
        { provider: 'mpesa_express', label: label('mpesa_express'), ready: mpesa.ready, problem: mpesa.problem, currency: 'KES', max_amount: MPESA_EXPRESS_MAX_AMOUNT, decimals: false },
        market('mtn_momo', momo, MTN_MOMO_MAX_AMOUNT),
        market('airtel_money', airtel, AIRTEL_MONEY_MAX_AMOUNT),
      ],
    };
  }

  /**
   * Tells the user who sent a request what M-Pesa answered (their bell's "For you"), unless they are the one who just
   * asked M-Pesa: the customer paid and what it bought, or did not pay and why.
   */
  private async tellRequester(orgId: string, id: number, checkedBy: AuthUser | null): Promise<void> {
    // The payment is recorded whatever becomes of this: a notification not written is logged, not answered 500 to M-Pesa.
    try {
      const [row] = await this.database.query<RequestRow>(Prisma.sql`${SELECT} WHERE r.organization_id = ${orgId} AND r.request_id = ${id}::int`);
      if (!row || row.requester_id === null || row.requester_id === checkedBy?.user_id) return;
      // Never the customer's name: erasing a customer leaves nothing of them in anyone's notifications.
      const who = 'The customer';
      const what = `${row.currency} ${Number(row.amount).toLocaleString('en-US')} for ${row.serial_number} by ${label(row.provider)}`;
      const r = toRequest(row);
      const message =
        r.status === 'paid'
          ? r.receipt
            ? `${who} paid ${what} (receipt ${r.receipt})${paidWhat(row)}`
            : `${who} paid ${what}, ${label(row.provider)} says: its receipt has not reached Kidogo yet`
          : `${who} did not pay ${what}: ${r.status_text}`;
      await this.database.query(
        userNotificationSql({ orgId, userId: row.requester_id, kind: 'payment_request_answered', message, ticketId: null, itemId: row.item_id, actor: checkedBy?.username ?? null }),
      );
    } catch (e) {
      this.logger.warn(`request ${orgId}/${id}: the requester could not be told: ${(e as Error).message}`);
    }
  }

  /**
   * Tells the sender that M-Pesa gave no answer about their request, even when asked (the sweep's last word on it);
   * not when a result came meanwhile (its sender was told of that).
   */
  async tellNoAnswer(orgId: string, id: number): Promise<void> {
    const [r] = await this.database.query<{ status: string }>(
      Prisma.sql`SELECT status FROM payment_requests WHERE organization_id = ${orgId} AND request_id = ${id}::int`,
    );
    if (r?.status === 'pending') await this.tellRequester(orgId, id, null);
  }

  /**
   * Marks a pending request as answered unpaid: cancelled by the customer (M-Pesa's 1032, MTN's APPROVAL_REJECTED) or
   * failed. MTN gives no code: its reason is the description.
   */
  private async unpaid(orgId: string, id: number, code: number | null, desc: string | null, by: 'callback' | 'check'): Promise<boolean> {
    const cancelled = code === null ? DECLINED.has(desc ?? '') : code === 1032;
    const changed = await this.database.query(Prisma.sql`
      UPDATE payment_requests SET status = ${cancelled ? 'cancelled' : 'failed'}, result_code = ${code}::int, result_desc = ${desc}, answered_by = ${by},
             completed_at = now()
      WHERE organization_id = ${orgId} AND request_id = ${id}::int AND status = 'pending'
      RETURNING request_id`);
    return changed.length > 0;
  }

  /**
   * A request M-Pesa says was paid but whose receipt has not come: the payment that brought the money another way
   * (the paybill confirmation, the SMS, the statement, or staff with the customer's receipt) is found by its device,
   * its amount and its time, when exactly one payment not already some request's fits, and becomes this request's.
   */
  private async findPayment(orgId: string, id: number): Promise<boolean> {
    const linked = await this.database.query(Prisma.sql`
      WITH r AS (
        SELECT request_id, item_id, amount, created_at FROM payment_requests
        WHERE organization_id = ${orgId} AND request_id = ${id}::int AND status = 'paid' AND answered_by = 'check' AND mpesa_receipt IS NULL
      ), fits AS (
        SELECT p.payment_id, p.transaction_code, p.days_bought
        FROM r JOIN payments p ON p.organization_id = ${orgId} AND p.item_id = r.item_id AND p.amount = r.amount
         AND p.created_at >= r.created_at AND p.transaction_code IS NOT NULL AND p.status = 'completed'
        WHERE NOT EXISTS (SELECT 1 FROM payment_requests o WHERE o.organization_id = ${orgId} AND o.payment_id = p.payment_id)
        ORDER BY p.created_at LIMIT 2
      )
      UPDATE payment_requests q SET mpesa_receipt = upper(f.transaction_code), payment_id = f.payment_id, payment_outcome = 'duplicate',
             days = NULLIF(f.days_bought, 0),
             token = (SELECT t.token_value FROM token_logs t WHERE t.organization_id = ${orgId} AND t.item_id = q.item_id AND t.payment_id = f.payment_id
                      ORDER BY t.token_log_id DESC LIMIT 1)
      FROM fits f
      WHERE q.organization_id = ${orgId} AND q.request_id = ${id}::int AND q.mpesa_receipt IS NULL AND (SELECT count(*) FROM fits) = 1
      RETURNING q.request_id`);
    return linked.length > 0;
  }

  /**
   * Asks Safaricom what became of a request whose result never came (a lost callback, a customer who never answered):
   * its answer is kept as the result would have been. A paid answer carries no receipt: the payment is found among those
   * that came another way, or waits for the receipt. A request already answered is not asked about again. `actor` null
   * is Kidogo asking by itself (the sweep).
   */
  async check(orgId: string, id: number, actor: AuthUser | null): Promise<PaymentRequestReply> {
    const [req] = await this.database.query<{ status: string; provider: string; checkout_request_id: string | null; mpesa_receipt: string | null; answered_by: string | null }>(
      Prisma.sql`SELECT status, provider, checkout_request_id, mpesa_receipt, answered_by FROM payment_requests WHERE organization_id = ${orgId} AND request_id = ${id}::int`,
    );
    if (!req) throw Errors.notFound('Payment request');
    if (req.provider === 'mtn_momo') return this.checkMomo(orgId, id, req, actor);
    if (req.provider === 'airtel_money') return this.checkAirtel(orgId, id, req, actor);
    if (req.status === 'paid' && req.answered_by === 'check' && req.mpesa_receipt === null) {
      const found = await this.findPayment(orgId, id);
      if (found) await this.tellRequester(orgId, id, actor);
      const data = await this.one(orgId, id);
      return { data, message: found ? data.status_text : `M-Pesa says the customer paid; no payment with its receipt has reached Kidogo yet` };
    }
    if (req.status !== 'pending') {
      const data = await this.one(orgId, id);
      throw Errors.conflict(`M-Pesa has already answered this request: ${data.status_text}`);
    }
    if (!req.checkout_request_id) throw Errors.conflict('The request has not reached M-Pesa yet: check again in a moment');

    const { account } = await this.settings.account(orgId);
    let answer;
    try {
      answer = await this.daraja.stkQuery(account, req.checkout_request_id);
    } catch (e) {
      const said = e instanceof DarajaError ? e.message : 'an unexpected error';
      this.logger.warn(`request ${orgId}/${id}: the check failed: ${(e as Error).message}`);
      throw Errors.badGateway(`M-Pesa could not say what became of the request: ${said}`);
    }
    if (answer.state === 'processing') {
      return { data: await this.one(orgId, id), message: 'M-Pesa is still waiting for the customer to answer the prompt' };
    }
    const desc = answer.resultDesc?.slice(0, 500) ?? null;
    if (answer.resultCode !== 0) {
      if (await this.unpaid(orgId, id, answer.resultCode, desc, 'check')) await this.tellRequester(orgId, id, actor);
    } else {
      const changed = await this.database.query(Prisma.sql`
        UPDATE payment_requests SET status = 'paid', result_code = 0, result_desc = ${desc}, answered_by = 'check', completed_at = now()
        WHERE organization_id = ${orgId} AND request_id = ${id}::int AND status = 'pending'
        RETURNING request_id`);
      await this.findPayment(orgId, id);
      if (changed.length) await this.tellRequester(orgId, id, actor);
    }
    const data = await this.one(orgId, id);
    return { data, message: data.status_text };
  }

  /**
   * Asks MTN what became of a request to pay (GET requesttopay/{X-Reference-Id}). Unlike M-Pesa's query, MTN's answer
   * carries the financial transaction id of a paid request, so the payment is recorded from it as from the result.
   */
  private async checkMomo(orgId: string, id: number, req: { status: string; checkout_request_id: string | null }, actor: AuthUser | null): Promise<PaymentRequestReply> {
    if (req.status !== 'pending') {
      const data = await this.one(orgId, id);
      throw Errors.conflict(`MTN MoMo has already answered this request: ${data.status_text}`);
    }
    const { account } = await this.momoSettings.account(orgId);
    let answer: MomoStatus;
    try {
      answer = await this.momo.status(account, req.checkout_request_id!);
    } catch (e) {
      const said = e instanceof MomoError ? e.message : 'an unexpected error';
      this.logger.warn(`request ${orgId}/${id}: the check failed: ${(e as Error).message}`);
      throw Errors.badGateway(`MTN MoMo could not say what became of the request: ${said}`);
    }
    if (answer.state === 'pending') {
      return { data: await this.one(orgId, id), message: 'MTN MoMo is still waiting for the customer to approve the payment' };
    }
    await this.momoAnswered(orgId, id, answer, 'check', actor);
    const data = await this.one(orgId, id);
    return { data, message: data.status_text };
  }

  /**
   * MTN's result, posted (or put) to the request's own URL: the request to pay as MTN reads it. The first answer of a
   * request counts; MTN's resends are acknowledged without doing anything again.
   */
  async momoCallback(token: string, body: MtnMomoCallback): Promise<MtnMomoCallbackReply> {
    const [req] = await this.database.query<{ organization_id: string; request_id: number }>(Prisma.sql`
      SELECT organization_id, request_id FROM payment_requests WHERE callback_token = ${token} AND provider = 'mtn_momo'`);
    if (!req) throw Errors.notFound('Payment request');
    const answer = momoStatusOf(body as Record<string, unknown>);
    if (!answer) throw Errors.badRequest('status', 'must be SUCCESSFUL, FAILED or PENDING');
    if (answer.state === 'successful' && !answer.financialTransactionId) throw Errors.badRequest('financialTransactionId', 'is required for a SUCCESSFUL payment');
    if (answer.state !== 'pending') await this.momoAnswered(req.organization_id, req.request_id, answer, 'callback', null);
    return { received: true };
  }

  /** MTN's answer kept: unpaid with its reason, or paid and handed to the receiver as MTN's collection (once, by its transaction id). */
  private momoAnswered(org: string, id: number, answer: Exclude<MomoStatus, { state: 'pending' }>, by: 'callback' | 'check', actor: AuthUser | null) {
    if (answer.state === 'failed') return this.answered(org, id, { paid: false, reason: answer.reason ?? 'FAILED' }, by, actor);
    return this.answered(
      org,
      id,
      {
        paid: true,
        receipt: answer.financialTransactionId,
        resultDesc: 'SUCCESSFUL',
        body: (req) => ({
          financialTransactionId: answer.financialTransactionId,
          externalId: req.serial_number,
          amount: answer.amount ?? req.amount,
          currency: answer.currency ?? req.currency,
          payer: { partyIdType: 'MSISDN', partyId: answer.payer ?? req.phone_number },
          status: 'SUCCESSFUL',
        }),
      },
      by,
      actor,
    );
  }

  /**
   * Asks Airtel what became of a USSD push (its Transaction Enquiry). Airtel's answer to a paid one carries Airtel
   * Money's transaction id, so the payment is recorded from it. Airtel's callback comes here too (by 'callback'): it
   * only says which transaction to ask about.
   */
  private async checkAirtel(
    orgId: string,
    id: number,
    req: { status: string; checkout_request_id: string | null },
    actor: AuthUser | null,
    by: 'callback' | 'check' = 'check',
  ): Promise<PaymentRequestReply> {
    if (req.status !== 'pending') {
      const data = await this.one(orgId, id);
      throw Errors.conflict(`Airtel Money has already answered this request: ${data.status_text}`);
    }
    const account = await this.airtelSettings.accountForCheck(orgId);
    let answer: AirtelStatus;
    try {
      answer = await this.airtel.status(account, req.checkout_request_id!);
    } catch (e) {
      const said = e instanceof AirtelError ? e.message : 'an unexpected error';
      this.logger.warn(`request ${orgId}/${id}: the check failed: ${(e as Error).message}`);
      throw Errors.badGateway(`Airtel Money could not say what became of the request: ${said}`);
    }
    if (answer.state === 'pending') {
      return { data: await this.one(orgId, id), message: 'Airtel Money is still waiting for the customer to approve the payment' };
    }
    if (answer.state === 'failed') {
      await this.answered(orgId, id, { paid: false, reason: answer.reason ?? 'TF' }, by, actor);
    } else {
      const receipt = answer.airtelMoneyId;
      await this.answered(
        orgId,
        id,
        {
          paid: true,
          receipt,
          resultDesc: 'TS',
          body: (r) => ({
            airtel_money_id: receipt,
            transaction_id: req.checkout_request_id,
            reference: r.serial_number,
            amount: r.amount,
            currency: r.currency,
            msisdn: r.phone_number,
            status_code: 'TS',
          }),
        },
        by,
        actor,
      );
    }
    const data = await this.one(orgId, id);
    return { data, message: data.status_text };
  }

  /**
   * Airtel's word that a transaction ended, posted to the one callback URL of the organization's Airtel app. It names
   * the transaction by Kidogo's id; Kidogo then asks Airtel how it ended, so a post that did not come from Airtel
   * changes nothing. A request already answered, or Airtel not answering the question (the sweep asks again after
   * three minutes), is acknowledged without doing anything.
   */
  async airtelCallback(body: AirtelMoneyCallback): Promise<AirtelMoneyCallbackReply> {
    const [req] = await this.database.query<{ organization_id: string; request_id: number; status: string; checkout_request_id: string | null }>(Prisma.sql`
      SELECT organization_id, request_id, status, checkout_request_id FROM payment_requests WHERE callback_token = ${body.transaction.id} AND provider = 'airtel_money'`);
    if (!req) throw Errors.notFound('Payment request');
    if (req.status !== 'pending') return { received: true };
    try {
      await this.checkAirtel(req.organization_id, req.request_id, req, null, 'callback');
    } catch (e) {
      this.logger.warn(`request ${req.organization_id}/${req.request_id}: Airtel's callback could not be confirmed: ${(e as Error).message}`);
    }
    return { received: true };
  }

  /**
   * A provider's final answer kept (MTN's, Airtel's): unpaid with its reason, or paid and handed to the receiver in
   * the provider's own shape, recorded once by its transaction id. The first answer of a request counts.
   */
  private async answered(
    org: string,
    id: number,
    outcome:
      | { paid: false; reason: string }
      | { paid: true; receipt: string | null; resultDesc: string; body: (req: { phone_number: string; amount: string; currency: string; serial_number: string }) => Record<string, unknown> },
    by: 'callback' | 'check',
    actor: AuthUser | null,
  ): Promise<void> {
    if (!outcome.paid) {
      if (await this.unpaid(org, id, null, outcome.reason.slice(0, 500), by)) await this.tellRequester(org, id, actor);
      return;
    }
    const receipt = outcome.receipt;
    const claimed = await this.database.query<{ phone_number: string; amount: string; currency: string; serial_number: string }>(Prisma.sql`
      UPDATE payment_requests r SET status = 'paid', result_desc = ${outcome.resultDesc}, mpesa_receipt = ${receipt?.toUpperCase() ?? null}, answered_by = ${by},
             completed_at = now()
      FROM items i
      WHERE r.organization_id = ${org} AND r.request_id = ${id}::int AND r.status = 'pending'
        AND i.organization_id = r.organization_id AND i.item_id = r.item_id
      RETURNING r.phone_number, r.amount::text AS amount, r.currency, i.serial_number`);
    if (!claimed.length) return;
    if (receipt) {
      const reply = await this.receiver.receive(org, outcome.body(claimed[0]!));
      await this.database.query(Prisma.sql`
        UPDATE payment_requests SET payment_id = ${reply.payment_id ?? null}::int, payment_outcome = ${reply.status}, payment_reason = ${reply.reason ?? null},
               days = ${reply.days === undefined ? null : Math.round(reply.days)}::int, token = ${reply.token ?? null}
        WHERE organization_id = ${org} AND request_id = ${id}::int`);
    }
    await this.tellRequester(org, id, actor);
  }

  /**
   * Safaricom's result, posted to the request's own URL. Each request is
   * completed once: the first result claims it (a conditional UPDATE), and
   * Safaricom's resends are acknowledged without doing anything again. A paid
   * one is then handed to the receiver as a Daraja confirmation. A request
   * a check found paid still takes its result, which brings the receipt (and
   * the payment, which may not be the one the check took for it).
   */
  async callback(token: string, body: MpesaExpressCallback): Promise<MpesaExpressCallbackReply> {
    const [req] = await this.database.query<{ organization_id: string; request_id: number; checkout_request_id: string | null; serial_number: string }>(Prisma.sql`
      SELECT r.organization_id, r.request_id, r.checkout_request_id, i.serial_number
      FROM payment_requests r JOIN items i ON i.organization_id = r.organization_id AND i.item_id = r.item_id
      WHERE r.callback_token = ${token} AND r.provider = 'mpesa_express'`);
    if (!req) throw Errors.notFound('Payment request');
    const cb = body.Body.stkCallback;
    if (req.checkout_request_id && cb.CheckoutRequestID !== req.checkout_request_id) {
      throw Errors.badRequest('Body.stkCallback.CheckoutRequestID', 'is not the one of this request');
    }
    const code = Number(cb.ResultCode);
    if (!Number.isInteger(code)) throw Errors.badRequest('Body.stkCallback.ResultCode', 'must be a whole number');
    const desc = cb.ResultDesc?.trim().slice(0, 500) ?? null;
    const org = req.organization_id;

    if (code !== 0) {
      if (await this.unpaid(org, req.request_id, code, desc, 'callback')) await this.tellRequester(org, req.request_id, null);
      return { ResultCode: 0, ResultDesc: 'Accepted' };
    }

    const receipt = item(cb, 'MpesaReceiptNumber');
    const amount = item(cb, 'Amount');
    if (!receipt || !/^[A-Za-z0-9]{6,40}$/.test(receipt)) throw Errors.badRequest('Body.stkCallback.CallbackMetadata', 'MpesaReceiptNumber is missing');
    if (!amount) throw Errors.badRequest('Body.stkCallback.CallbackMetadata', 'Amount is missing');
    const claimed = await this.database.query<{ phone_number: string }>(Prisma.sql`
      UPDATE payment_requests SET status = 'paid', result_code = 0, result_desc = ${desc}, mpesa_receipt = ${receipt.toUpperCase()}, answered_by = 'callback',
             completed_at = now()
      WHERE organization_id = ${org} AND request_id = ${req.request_id}::int
        AND (status = 'pending' OR (status = 'paid' AND answered_by = 'check'))
      RETURNING phone_number`);
    if (!claimed.length) return { ResultCode: 0, ResultDesc: 'Accepted' };

    const { account } = await this.settings.account(org).catch(() => ({ account: null }));
    const reply = await this.receiver.receive(org, {
      TransactionType: 'M-Pesa Express',
      TransID: receipt,
      TransTime: item(cb, 'TransactionDate') ?? '',
      TransAmount: amount,
      BusinessShortCode: account?.shortCode ?? '',
      BillRefNumber: req.serial_number,
      MSISDN: item(cb, 'PhoneNumber') ?? claimed[0]!.phone_number,
      FirstName: '',
    });
    await this.database.query(Prisma.sql`
      UPDATE payment_requests SET payment_id = ${reply.payment_id ?? null}::int, payment_outcome = ${reply.status}, payment_reason = ${reply.reason ?? null},
             days = ${reply.days === undefined ? null : Math.round(reply.days)}::int, token = ${reply.token ?? null}
      WHERE organization_id = ${org} AND request_id = ${req.request_id}::int`);
    await this.tellRequester(org, req.request_id, null);
    return { ResultCode: 0, ResultDesc: 'Accepted' };
  }
}
