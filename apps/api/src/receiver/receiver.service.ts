import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import {
  extractForwardedMessage,
  parseAmountToCents,
  parseDarajaC2B,
  parseMessage,
  type ParsedPayment,
  type ParseResult,
} from '@kidogo/mobile-money';
import type { PaymentOutcome, ReceiveReply } from '@kidogo/contracts';
import { Prisma } from '../generated/prisma/client.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { DatabaseService } from '../database/database.service.js';
import { PaymentPipeline, type IncomingMessage } from '../payments/payment-pipeline.service.js';

/** A message still in status received after this long was left by a crash (or a failed request). */
const STALE_MS = 60_000;
/** Older leftovers are not retried automatically (a stuck message shows in GET /messages/debug). */
const GIVE_UP_MS = 7 * 86_400_000;
const SWEEP_EVERY_MS = 60_000;

type Json = Record<string, unknown>;

function text(v: unknown, max: number): string | null {
  if (typeof v === 'string') return v.trim().slice(0, max) || null;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return null;
}

/** What the history shows as the incoming text: the SMS itself, or a one-line summary of a Daraja callback. */
function incomingText(body: Json): { text: string | null; sender: string | null; receivedAt: Date | null; kind: 'sms' | 'daraja' | 'invalid' } {
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
  return { text: null, sender: text(body.from ?? body.sender, 100), receivedAt: null, kind: 'invalid' };
}

function parse(body: Json): { result: ParseResult; source: 'sms' | 'daraja' } {
  const fwd = extractForwardedMessage(body);
  if (fwd.kind === 'daraja') return { result: parseDarajaC2B(fwd.body), source: 'daraja' };
  if (fwd.kind === 'invalid') return { result: { ok: false, error: fwd.error }, source: 'sms' };
  return { result: parseMessage(fwd.text), source: 'sms' };
}

function paidAt(p: ParsedPayment, fallback: Date): Date {
  if (!p.transacted_at) return fallback;
  const d = new Date(p.transacted_at);
  return Number.isNaN(d.getTime()) ? fallback : d;
}

/**
 * The gateway's endpoint. A request is answered 200 only once its message is
 * committed, so nothing acknowledged is ever lost: the message row is written
 * once, with the payment, tokens and reply, by the transaction that records
 * them (one commit and one version of the row per payment, where storing it
 * first took a second commit and a rewrite of the row and its ten indexes).
 * When that transaction fails, the message is stored as it came, in status
 * received, and the error answered; the recovery sweep (at start and every
 * minute, on any of several API processes, rows taken with SKIP LOCKED)
 * processes such messages again. A process that dies mid-request has
 * acknowledged nothing, so the gateway sends again.
 */
@Injectable()
export class ReceiverService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Receiver');
  private timer: NodeJS.Timeout | null = null;
  private sweeping: Promise<number> | null = null;

  constructor(
    private readonly database: DatabaseService,
    private readonly pipeline: PaymentPipeline,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async receive(orgId: string, body: Json): Promise<ReceiveReply> {
    const incoming = incomingText(body);
    const receivedAt = incoming.receivedAt && !Number.isNaN(incoming.receivedAt.getTime()) ? incoming.receivedAt : null;
    const message: IncomingMessage = { payload: JSON.stringify(body), text: incoming.text, sender: incoming.sender, receivedAt };
    const { result, source } = parse(body);
    if (!result.ok) {
      const outcome: PaymentOutcome = { status: 'unparsed', error: result.error };
      const [row] = await this.database.prepared<{ message_id: number }>(Prisma.sql`
        WITH mid AS (SELECT nextval(pg_get_serial_sequence('messages', 'message_id'))::int AS id)
        INSERT INTO messages (message_id, organization_id, raw_payload, received_message, sender, received_at, status, parse_error, result)
        SELECT mid.id, ${orgId}, ${message.payload}::jsonb, ${message.text}, ${message.sender},
               coalesce(${receivedAt?.toISOString() ?? null}::timestamptz, now()), 'unparsed'::"MessageStatus", ${result.error},
               jsonb_set(${JSON.stringify({ parsed: null, outcome })}::jsonb, '{outcome,message_id}', to_jsonb(mid.id))
        FROM mid
        RETURNING message_id`);
      return { ...outcome, message_id: row!.message_id };
    }
    const p = result.payment;
    const code = p.transaction_code.slice(0, 64);
    try {
      const outcome = await this.database.transaction((run) =>
        this.pipeline.record(
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
            paidAt: paidAt(p, receivedAt ?? new Date()),
            messageId: null,
            incoming: message,
            recordedBy: 'system',
            actor: null,
          },
          { transactionCode: code, amount: p.amount, parsed: p },
        ),
      );
      return { ...outcome, message_id: outcome.message_id! };
    } catch (e) {
      // Not recorded (the transaction rolled back): keep the message as it
      // came, for the recovery sweep to process again, then answer the error.
      await this.database.query(Prisma.sql`
        INSERT INTO messages (organization_id, raw_payload, received_message, sender, received_at, status)
        VALUES (${orgId}, ${message.payload}::jsonb, ${message.text}, ${message.sender},
                coalesce(${receivedAt?.toISOString() ?? null}::timestamptz, now()), 'received'::"MessageStatus")`);
      throw e;
    }
  }

  /** Processes a stored message (left in status received); null when another process has it or it is no longer waiting. */
  async process(orgId: string, messageId: number): Promise<ReceiveReply | null> {
    return this.database.transaction(async (run) => {
      const [msg] = await run<{ raw_payload: unknown; received_at: Date }>(Prisma.sql`
        SELECT raw_payload, received_at FROM messages
        WHERE organization_id = ${orgId} AND message_id = ${messageId}::int AND status = 'received'::"MessageStatus"
        FOR UPDATE SKIP LOCKED`);
      if (!msg) return null;
      const raw = typeof msg.raw_payload === 'string' ? (JSON.parse(msg.raw_payload) as unknown) : msg.raw_payload;
      const body = (raw && typeof raw === 'object' && !Array.isArray(raw) ? raw : {}) as Json;
      const { result, source } = parse(body);
      if (!result.ok) {
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
          paidAt: paidAt(p, msg.received_at),
          messageId,
          recordedBy: 'system',
          actor: null,
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
