import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import {
  EAT_OFFSET,
  extractForwardedMessage,
  formatBalanceReply,
  formatCodeReply,
  formatSmsPreferenceReply,
  isPersonSender,
  normalizePhone,
  parseAmountToCents,
  parseBalanceRequest,
  parseCodeRequest,
  parseDarajaC2B,
  parseMessage,
  parseMomoCollection,
  parseAirtelCollection,
  parseSmsPreference,
  type ParsedPayment,
  type ParseResult,
  replyLanguage,
  namedText,
} from '@kidogo/mobile-money';
import type { PaymentOutcome, ReceiveReply } from '@kidogo/contracts';
import { Prisma, type Customer as CustomerRow } from '../generated/prisma/client.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { Calendar } from '../common/calendar.js';
import { DatabaseService, type Run } from '../database/database.service.js';
import { PaymentPipeline, type IncomingMessage } from '../payments/payment-pipeline.service.js';
import { customerDevices } from '../customers/customer-devices.js';
import { SMS_OPT_OUT_FIELDS, toCustomer } from '../customers/customers.mapper.js';
import { withdrawCampaignTextsSql } from '../sms-campaigns/campaign-texts.js';
import { phoneCountry } from '../customers/phone-country.js';
import { webhookEventsSql, webhookSubscribedSql } from '../webhooks/webhook-events.js';

/** A message still in status received after this long was left by a crash (or a failed request). */
const STALE_MS = 60_000;
/** Older leftovers are not retried automatically (a stuck message shows in GET /messages/debug). */
const GIVE_UP_MS = 7 * 86_400_000;
const SWEEP_EVERY_MS = 60_000;

type Json = Record<string, unknown>;

/** A customer's request answered (customerRequest): which, the reply and where it goes. */
interface RequestAnswer {
  request: 'balance' | 'code' | 'sms_opt_out' | 'sms_opt_in';
  text: string;
  recipient: string;
  /** The device, when the reply is about one. */
  itemId: number | null;
  serial: string | null;
  /** STOP and START: the customers with the sender's phone whose choice changed. */
  customers?: number;
}

/** A serial number as customers type it: any case, with or without dashes, dots and spaces. */
const serialKey = (s: string) => s.toUpperCase().replace(/[\s._-]/g, '');

/** What the gateway hears for an answered request. */
const requestOutcome = (a: RequestAnswer): PaymentOutcome => ({
  status: 'processed',
  request: a.request,
  serial_number: a.serial,
  reply_message: a.text,
  ...(a.customers === undefined ? {} : { customers: a.customers }),
});

function text(v: unknown, max: number): string | null {
  if (typeof v === 'string') return v.trim().slice(0, max) || null;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return null;
}

/** What the history shows as the incoming text: the SMS itself, or a one-line summary of a Daraja callback. */
function incomingText(body: Json): { text: string | null; sender: string | null; receivedAt: Date | null; kind: 'sms' | 'daraja' | 'momo' | 'airtel' | 'invalid' } {
  const fwd = extractForwardedMessage(body);
  if (fwd.kind === 'sms') {
    return { text: fwd.text.slice(0, 5000), sender: fwd.from?.slice(0, 100) ?? null, receivedAt: fwd.received_at ? new Date(fwd.received_at) : null, kind: 'sms' };
  }
  if (fwd.kind === 'daraja') {
    const names = ['FirstName', 'MiddleName', 'LastName'].map((k) => text(body[k], 50)).filter(Boolean).join(' ');
    const summary = [
      `Daraja ${text(body.TransactionType, 40) ?? 'C2B'} ${text(body.TransID, 40) ?? ''}:`,
      `KES ${text(body.TransAmount, 20) ?? '?'} from ${[text(body.MSISDN, 20), names].filter(Boolean).join(' ') || 'unknown'}`,
      `to ${text(body.BusinessShortCode, 20) ?? '?'}, account ${text(body.BillRefNumber, 40) ?? '-'}`,
    ].join(' ');
    return { text: summary, sender: text(body.MSISDN, 100), receivedAt: null, kind: 'daraja' };
  }
  if (fwd.kind === 'momo') {
    const payer = body.payer && typeof body.payer === 'object' ? text((body.payer as Json).partyId, 20) : null;
    const summary =
      `MTN MoMo Request to Pay ${text(body.financialTransactionId, 40) ?? ''}: ${text(body.currency, 3) ?? '?'} ${text(body.amount, 20) ?? '?'} ` +
      `from ${payer ?? 'unknown'}, account ${text(body.externalId, 40) ?? '-'}`;
    return { text: summary, sender: payer, receivedAt: null, kind: 'momo' };
  }
  if (fwd.kind === 'airtel') {
    const payer = text(body.msisdn, 20);
    const summary =
      `Airtel Money USSD push ${text(body.airtel_money_id, 40) ?? ''}: ${text(body.currency, 3) ?? '?'} ${text(body.amount, 20) ?? '?'} ` +
      `from ${payer ?? 'unknown'}, account ${text(body.reference, 40) ?? '-'}`;
    return { text: summary, sender: payer, receivedAt: null, kind: 'airtel' };
  }
  return { text: null, sender: text(body.from ?? body.sender, 100), receivedAt: null, kind: 'invalid' };
}

/**
 * A confirmation texted from a phone number, not sent by the mobile-money
 * service, may be typed by anyone who knows a serial number: it is recorded
 * but applied to no device until staff have checked it against the
 * statement and matched it.
 */
function heldFor(source: PaymentSource, sender: string | null): string | undefined {
  if (source !== 'sms' || !isPersonSender(sender)) return undefined;
  return `Sent from the phone number ${sender}, not by a mobile-money service: held until staff match it`;
}

/** Where a received payment came from: a forwarded SMS, Daraja's confirmation, MTN MoMo's Request to Pay or Airtel Money's USSD push. */
type PaymentSource = 'sms' | 'daraja' | 'mtn_momo' | 'airtel_money';

function parse(body: Json): { result: ParseResult; source: PaymentSource } {
  const fwd = extractForwardedMessage(body);
  if (fwd.kind === 'daraja') return { result: parseDarajaC2B(fwd.body), source: 'daraja' };
  if (fwd.kind === 'momo') return { result: parseMomoCollection(fwd.body), source: 'mtn_momo' };
  if (fwd.kind === 'airtel') return { result: parseAirtelCollection(fwd.body), source: 'airtel_money' };
  if (fwd.kind === 'invalid') return { result: { ok: false, error: fwd.error }, source: 'sms' };
  return { result: parseMessage(fwd.text), source: 'sms' };
}

/** A parsed time as the parser writes a local clock's: "YYYY-MM-DDTHH:MM:SS" in East Africa Time. */
const EAT_TIME = new RegExp(`^(\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2})${EAT_OFFSET.replace('+', '\\+')}$`);

/**
 * When the payment was made, by its message, else `fallback`. A forwarded
 * SMS's time is the clock of the phone network that wrote it, which has no
 * offset: it is read in the business time zone (TIME_ZONE), so an Airtel
 * Money SMS in Lusaka is read as Lusaka's time, not Nairobi's. Daraja's
 * TransTime is Safaricom's, East Africa Time, as parsed.
 */
export function paidAt(p: ParsedPayment, source: PaymentSource, calendar: Calendar, fallback: Date): Date {
  if (!p.transacted_at) return fallback;
  const local = source === 'sms' ? EAT_TIME.exec(p.transacted_at) : null;
  const d = local ? calendar.instantAt(local[1]!) : new Date(p.transacted_at);
  return d && !Number.isNaN(d.getTime()) ? d : fallback;
}

/**
 * The gateway's endpoint. Every request is first stored raw, in its own
 * committed insert into inbound_requests (a table with nothing but its primary
 * key to maintain), under the message id it will have; nothing received is
 * ever lost. It is then processed in one transaction that takes the raw row
 * (deleting it: the row stays locked until commit) and writes the message
 * once, with the payment, tokens and reply (one version of the message row
 * and its indexes, where storing the message first and completing it after
 * wrote them twice). When processing fails, the request becomes a message in
 * status received at once; when the process dies, the recovery sweep (at
 * start and every minute, on any of several API processes, rows taken with
 * SKIP LOCKED) turns raw requests older than a minute into such messages, and
 * processes every message left in status received.
 */
@Injectable()
export class ReceiverService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Receiver');
  private timer: NodeJS.Timeout | null = null;
  private sweeping: Promise<number> | null = null;

  constructor(
    private readonly database: DatabaseService,
    private readonly pipeline: PaymentPipeline,
    private readonly calendar: Calendar,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async receive(orgId: string, body: Json): Promise<ReceiveReply> {
    const incoming = incomingText(body);
    const receivedAt = incoming.receivedAt && !Number.isNaN(incoming.receivedAt.getTime()) ? incoming.receivedAt : null;
    const payload = JSON.stringify(body);
    // Its own committed statement: whatever happens next, the request is kept.
    //
    // Committed without waiting for the disk (synchronous_commit off for this statement's own transaction):
    // the gateway hears back only after a later commit that does wait, the payment's or, on an error,
    // keepWaiting's, and writing the log to disk up to that one writes this one too. So the wait is
    // skipped only for requests nobody has been answered for yet, whose gateway sends them again if
    // the database stops before then. Measured on the benchmark's database: the statement takes 0.08 ms
    // instead of 0.36 ms, one of a payment's two disk flushes (throughput there is bound by the CPU, unchanged).
    const [stored] = await this.database.prepared<{ message_id: number }>(Prisma.sql`
      INSERT INTO inbound_requests (message_id, organization_id, raw_payload, received_message, sender, received_at)
      SELECT nextval(pg_get_serial_sequence('messages', 'message_id'))::int, ${orgId}, ${payload}::jsonb, ${incoming.text},
             ${incoming.sender}, ${receivedAt?.toISOString() ?? null}::timestamptz
      FROM (SELECT set_config('synchronous_commit', 'off', true)) AS no_disk_wait
      RETURNING message_id`);
    const message: IncomingMessage = { id: stored!.message_id, payload, text: incoming.text, sender: incoming.sender, receivedAt };
    let reply: ReceiveReply | null;
    try {
      reply = await this.database.transaction(async (run) => {
        // Take the raw request; nothing when the recovery sweep took it first.
        const taken = await run(Prisma.sql`
          DELETE FROM inbound_requests WHERE organization_id = ${orgId} AND message_id = ${message.id}::int RETURNING 1`);
        return taken.length ? this.handle(run, orgId, body, message) : null;
      });
    } catch (e) {
      // Nothing was recorded (the transaction rolled back): keep the request
      // as a message waiting in status received, then answer the error.
      await this.keepWaiting(Prisma.sql`organization_id = ${orgId} AND message_id = ${message.id}::int`).catch((k: Error) =>
        this.logger.error(`request ${orgId}/${message.id} left raw for the sweep: ${k.message}`),
      );
      throw e;
    }
    if (reply) return reply;
    // The recovery sweep has it: answer what it recorded.
    const [row] = await this.database.query<{ result: { outcome?: PaymentOutcome } | null }>(Prisma.sql`
      SELECT result FROM messages WHERE organization_id = ${orgId} AND message_id = ${message.id}::int`);
    const outcome = row?.result?.outcome;
    return { ...(outcome ?? { status: 'unparsed', error: 'Still being processed' }), message_id: message.id };
  }

  /** Parses a received request and records it, writing its message once. */
  private async handle(run: Run, orgId: string, body: Json, message: IncomingMessage): Promise<ReceiveReply> {
    const { result, source } = parse(body);
    if (!result.ok) {
      const answer = await this.customerRequest(run, orgId, message.text, message.sender);
      if (answer) {
        const outcome = requestOutcome(answer);
        await run(Prisma.sql`
          INSERT INTO messages (message_id, organization_id, raw_payload, received_message, sender, received_at, status, item_id,
                                forwarded_message, recipient_number, delivery_status, result)
          VALUES (${message.id}::int, ${orgId}, ${message.payload}::jsonb, ${message.text}, ${message.sender},
                  coalesce(${message.receivedAt?.toISOString() ?? null}::timestamptz, now()), 'processed'::"MessageStatus", ${answer.itemId}::int,
                  ${answer.text}, ${answer.recipient}, 'queued'::"DeliveryStatus",
                  ${JSON.stringify({ parsed: null, outcome: { ...outcome, message_id: message.id } })}::jsonb)`);
        return { ...outcome, message_id: message.id };
      }
      const outcome: PaymentOutcome = { status: 'unparsed', error: result.error };
      await run(Prisma.sql`
        INSERT INTO messages (message_id, organization_id, raw_payload, received_message, sender, received_at, status, parse_error, result)
        VALUES (${message.id}::int, ${orgId}, ${message.payload}::jsonb, ${message.text}, ${message.sender},
                coalesce(${message.receivedAt?.toISOString() ?? null}::timestamptz, now()), 'unparsed'::"MessageStatus", ${result.error},
                ${JSON.stringify({ parsed: null, outcome: { ...outcome, message_id: message.id } })}::jsonb)`);
      return { ...outcome, message_id: message.id };
    }
    const p = result.payment;
    const code = p.transaction_code.slice(0, 64);
    const outcome = await this.pipeline.record(
      run,
      orgId,
      {
        transactionCode: code,
        amountCents: parseAmountToCents(p.amount)!,
        currency: p.currency,
        method: 'mobile_money',
        source,
        accountReference: p.account_reference?.slice(0, 100) ?? null,
        payerPhone: p.sender_phone,
        payerName: p.sender_name?.slice(0, 200) ?? null,
        paidAt: paidAt(p, source, this.calendar, message.receivedAt ?? new Date()),
        messageId: null,
        incoming: message,
        recordedBy: 'system',
        actor: null,
        hold: heldFor(source, message.sender),
      },
      { transactionCode: code, amount: p.amount, parsed: p },
    );
    return { ...outcome, message_id: message.id };
  }

  /** A text that is not a payment: STOP or START (smsPreference), or BAL or CODE (devicesReply); null when it is none of them. */
  private async customerRequest(run: Run, orgId: string, text: string | null, sender: string | null): Promise<RequestAnswer | null> {
    const preference = parseSmsPreference(text);
    return preference ? this.smsPreference(run, orgId, preference, sender) : this.devicesReply(run, orgId, text, sender);
  }

  /**
   * STOP (UNSUBSCRIBE, ACHA, ...) or START (ANZA) from a customer's phone
   * (README "Texts a customer can stop"): every customer of the organization
   * with that phone stops (or again takes) the texts nobody asked for, with
   * an audit entry each, and the phone gets one confirmation in the
   * organization's reply language, also when nothing changed (a second
   * STOP). Null when no customer has the phone: nobody is texted back.
   */
  private async smsPreference(run: Run, orgId: string, preference: 'stop' | 'start', sender: string | null): Promise<RequestAnswer | null> {
    const phone = sender ? normalizePhone(sender, await phoneCountry(run, orgId)) : null;
    if (!phone) return null;
    const stop = preference === 'stop';
    const [row] = await run<{ reply_language: string; text_name: string | null; known: number; changed: number[] }>(Prisma.sql`
      WITH u AS (
        UPDATE customers SET sms_opted_out_at = CASE WHEN ${stop} THEN now() END, sms_opt_out_source = CASE WHEN ${stop} THEN 'sms' END,
               updated_at = now()
        WHERE organization_id = ${orgId} AND phone_normalized = ${phone} AND (sms_opted_out_at IS NULL) = ${stop}
        RETURNING customer_id, customer_name
      ),
      a AS (
        INSERT INTO audit_logs (organization_id, action, entity_type, entity_id, description, metadata)
        SELECT ${orgId}, ${stop ? 'customer.sms_opted_out' : 'customer.sms_opted_in'}, 'customer', customer_id::text,
               left(format(${stop ? 'Customer %s texted STOP from %s: no more texts nobody asked for' : 'Customer %s texted START from %s: texts again'}::text,
                           customer_name, ${phone}::text), 1000),
               jsonb_build_object('source', 'sms', 'phone', ${phone}::text)
        FROM u
      )
      SELECT o.reply_language, o.text_name,
             (SELECT count(*)::int FROM customers WHERE organization_id = ${orgId} AND phone_normalized = ${phone}) AS known,
             ARRAY(SELECT customer_id FROM u) AS changed
      FROM organizations o WHERE o.organization_id = ${orgId}`);
    if (!row?.known) return null;
    if (row.changed.length) await this.customersUpdated(run, orgId, row.changed);
    // A bulk SMS set to go later is not sent to a phone that said STOP in the meantime.
    if (stop) await run(withdrawCampaignTextsSql(orgId, [phone]));
    const language = replyLanguage(row.reply_language);
    return {
      request: stop ? 'sms_opt_out' : 'sms_opt_in',
      text: namedText(formatSmsPreferenceReply(preference, language), row.text_name),
      recipient: phone,
      itemId: null,
      serial: null,
      customers: row.changed.length,
    };
  }

  /** customer.updated for each customer a STOP or START changed, in its transaction, when an endpoint is sent them. */
  private async customersUpdated(run: Run, orgId: string, ids: number[]): Promise<void> {
    const [{ subscribed } = { subscribed: false }] = await run<{ subscribed: boolean }>(webhookSubscribedSql(orgId, 'customer.updated'));
    if (!subscribed) return;
    const rows = await run<Omit<CustomerRow, 'id'> & { customer_id: number }>(Prisma.sql`
      SELECT * FROM customers WHERE organization_id = ${orgId} AND customer_id = ANY(${ids}::int[]) ORDER BY customer_id`);
    const events = rows.map(({ customer_id, ...c }) => ({ ...toCustomer({ ...c, id: customer_id }), changed: SMS_OPT_OUT_FIELDS, source: 'sms' }));
    await run(webhookEventsSql(orgId, 'customer.updated', events));
  }

  /**
   * A customer's balance or last-code request (README "Balance by SMS"): a
   * text of BAL (BALANCE, SALIO, SOLDE) or CODE (TOKEN, NAMBA), perhaps with
   * a serial number, from the phone of exactly one customer, answered with
   * each of their devices' credit and what is left to pay, or last code, in
   * the organization's reply language. Null when the text is not one, or no
   * single customer has that phone (nobody is texted back: the number may be
   * anyone's).
   */
  private async devicesReply(run: Run, orgId: string, text: string | null, sender: string | null): Promise<RequestAnswer | null> {
    const balance = parseBalanceRequest(text);
    const request = balance ?? parseCodeRequest(text);
    const phone = request && sender ? normalizePhone(sender, await phoneCountry(run, orgId)) : null;
    if (!request || !phone) return null;
    const customers = await run<{ customer_id: number; customer_name: string; reply_language: string; text_name: string | null }>(Prisma.sql`
      SELECT c.customer_id, c.customer_name, o.reply_language, o.text_name
      FROM customers c JOIN organizations o ON o.organization_id = c.organization_id
      WHERE c.organization_id = ${orgId} AND c.phone_normalized = ${phone} LIMIT 2`);
    if (customers.length !== 1) return null;
    const customer = customers[0]!;
    const rows = await customerDevices(run, this.calendar, orgId, customer.customer_id);
    const named = request.serial ? rows.filter((d) => serialKey(d.balance.serialNumber) === serialKey(request.serial!)) : [];
    const devices = named.length ? named : rows;
    const about = {
      language: replyLanguage(customer.reply_language),
      customerName: customer.customer_name,
      unknownSerial: request.serial && !named.length ? request.serial.toUpperCase() : null,
    };
    const reply = balance
      ? formatBalanceReply({ ...about, devices: devices.map((d) => d.balance) })
      : formatCodeReply({ ...about, devices: devices.map((d) => ({ serialNumber: d.balance.serialNumber, code: d.lastCode })) });
    const only = devices.length === 1 ? devices[0]! : null;
    return { request: balance ? 'balance' : 'code', text: namedText(reply, customer.text_name), recipient: phone, itemId: only?.itemId ?? null, serial: only?.balance.serialNumber ?? null };
  }

  /**
   * Turns raw requests (those matching `where`, not held by a transaction)
   * into messages in status received, for the sweep to process; returns how many.
   */
  private async keepWaiting(where: Prisma.Sql): Promise<number> {
    const rows = await this.database.query(Prisma.sql`
      WITH taken AS (
        DELETE FROM inbound_requests
        WHERE (organization_id, message_id) IN (
          SELECT organization_id, message_id FROM inbound_requests WHERE ${where}
          ORDER BY created_at LIMIT 500 FOR UPDATE SKIP LOCKED)
        RETURNING *
      )
      INSERT INTO messages (message_id, organization_id, raw_payload, received_message, sender, received_at, status, created_at)
      SELECT message_id, organization_id, raw_payload, received_message, sender, coalesce(received_at, created_at),
             'received'::"MessageStatus", created_at
      FROM taken
      RETURNING message_id`);
    return rows.length;
  }

  /** Processes a stored message (left in status received); null when another process has it or it is no longer waiting. */
  async process(orgId: string, messageId: number): Promise<ReceiveReply | null> {
    return this.database.transaction(async (run) => {
      const [msg] = await run<{ raw_payload: unknown; received_at: Date; sender: string | null }>(Prisma.sql`
        SELECT raw_payload, received_at, sender FROM messages
        WHERE organization_id = ${orgId} AND message_id = ${messageId}::int AND status = 'received'::"MessageStatus"
        FOR UPDATE SKIP LOCKED`);
      if (!msg) return null;
      const raw = typeof msg.raw_payload === 'string' ? (JSON.parse(msg.raw_payload) as unknown) : msg.raw_payload;
      const body = (raw && typeof raw === 'object' && !Array.isArray(raw) ? raw : {}) as Json;
      const { result, source } = parse(body);
      if (!result.ok) {
        const answer = await this.customerRequest(run, orgId, incomingText(body).text, msg.sender);
        if (answer) {
          const outcome = requestOutcome(answer);
          await run(Prisma.sql`
            UPDATE messages SET status = 'processed'::"MessageStatus", item_id = ${answer.itemId}::int, forwarded_message = ${answer.text},
                   recipient_number = ${answer.recipient}, delivery_status = 'queued'::"DeliveryStatus",
                   result = ${JSON.stringify({ parsed: null, outcome })}::jsonb
            WHERE organization_id = ${orgId} AND message_id = ${messageId}::int`);
          return { ...outcome, message_id: messageId };
        }
        const outcome: PaymentOutcome = { status: 'unparsed', error: result.error };
        await run(Prisma.sql`
          UPDATE messages SET status = 'unparsed'::"MessageStatus", parse_error = ${result.error},
                 result = ${JSON.stringify({ parsed: null, outcome })}::jsonb
          WHERE organization_id = ${orgId} AND message_id = ${messageId}::int`);
        return { ...outcome, message_id: messageId };
      }
      const p = result.payment;
      const code = p.transaction_code.slice(0, 64);
      const outcome = await this.pipeline.record(
        run,
        orgId,
        {
          transactionCode: code,
          amountCents: parseAmountToCents(p.amount)!,
          currency: p.currency,
          method: 'mobile_money',
          source,
          accountReference: p.account_reference?.slice(0, 100) ?? null,
          payerPhone: p.sender_phone,
          payerName: p.sender_name?.slice(0, 200) ?? null,
          paidAt: paidAt(p, source, this.calendar, msg.received_at),
          messageId,
          recordedBy: 'system',
          actor: null,
          hold: heldFor(source, msg.sender),
        },
        { transactionCode: code, amount: p.amount, parsed: p },
      );
      return { ...outcome, message_id: messageId };
    });
  }

  /** Reprocesses messages left in status received; returns how many this process handled. */
  recover(): Promise<number> {
    // One sweep at a time per process; other processes skip the rows this one holds.
    this.sweeping ??= this.sweep().finally(() => (this.sweeping = null));
    return this.sweeping;
  }

  private async sweep(): Promise<number> {
    const now = Date.now();
    // Requests whose process died before it answered: waiting messages now.
    let kept: number;
    do {
      kept = await this.keepWaiting(Prisma.sql`created_at < ${new Date(now - STALE_MS).toISOString()}::timestamptz`);
    } while (kept === 500);
    const orgs = await this.database.platform.organization.findMany({ select: { id: true } });
    let done = 0;
    for (const { id: orgId } of orgs) {
      const stale = await this.database.db.message.findMany({
        where: { organization_id: orgId, status: 'received', created_at: { lt: new Date(now - STALE_MS), gt: new Date(now - GIVE_UP_MS) } },
        select: { id: true },
        orderBy: { created_at: 'asc' },
        take: 200,
      });
      for (const { id } of stale) {
        try {
          if (await this.process(orgId, id)) done++;
        } catch (e) {
          this.logger.error(`message ${orgId}/${id} could not be processed: ${(e as Error).message}`);
        }
      }
    }
    if (done) this.logger.log(`recovered ${done} message(s) left unprocessed`);
    return done;
  }

  onApplicationBootstrap(): void {
    // The outbox switch is the background-worker switch: tests drive both by hand.
    if (!this.config.outbox.enabled) return;
    const run = () => void this.recover().catch((e) => this.logger.error(`recovery sweep failed: ${(e as Error).message}`));
    setTimeout(run, 1_000).unref();
    this.timer = setInterval(run, SWEEP_EVERY_MS);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.sweeping?.catch(() => undefined);
  }
}
