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
import { PaymentPipeline } from '../payments/payment-pipeline.service.js';

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
 * The gateway's endpoint. Every request is first stored raw as a message row
 * in its own committed insert, so nothing received is ever lost; it is then
 * processed in one transaction (parse, record the payment once, tokens, reply).
 * A message left in status received (the process died between the two) is
 * picked up again by the recovery sweep, at start and every minute, on any
 * of several API processes (the row lock is taken with SKIP LOCKED).
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
    // Its own committed statement: whatever happens next, the message is kept.
    const [message] = await this.database.prepared<{ message_id: number; received_at: Date }>(Prisma.sql`
      INSERT INTO messages (organization_id, raw_payload, received_message, sender, status, received_at)
      VALUES (${orgId}, ${JSON.stringify(body)}::jsonb, ${incoming.text}, ${incoming.sender}, 'received'::"MessageStatus",
              coalesce(${receivedAt?.toISOString() ?? null}::timestamptz, now()))
      RETURNING message_id, received_at`);
    const outcome = await this.process(orgId, message!.message_id, { body, receivedAt: message!.received_at });
    if (outcome) return outcome;
    // Another process holds it (a recovery sweep): answer what it recorded.
    const [row] = await this.database.query<{ result: { outcome?: PaymentOutcome } | null }>(Prisma.sql`
      SELECT result FROM messages WHERE organization_id = ${orgId} AND message_id = ${message!.message_id}::int`);
    const stored = row?.result?.outcome;
    return { ...(stored ?? { status: 'unparsed', error: 'Still being processed' }), message_id: message!.message_id };
  }

  /**
   * Processes one stored message (the body is passed when the caller has it,
   * so it is not read back); null when another process has it or it is no
   * longer in status received.
   */
  async process(orgId: string, messageId: number, known?: { body: Json; receivedAt: Date }): Promise<ReceiveReply | null> {
    return this.database.transaction(async (run) => {
      let body = known?.body;
      let receivedAt = known?.receivedAt;
      if (!body) {
        const [msg] = await run<{ raw_payload: unknown; received_at: Date }>(Prisma.sql`
          SELECT raw_payload, received_at FROM messages
          WHERE organization_id = ${orgId} AND message_id = ${messageId}::int AND status = 'received'::"MessageStatus"
          FOR UPDATE SKIP LOCKED`);
        if (!msg) return null;
        const raw = typeof msg.raw_payload === 'string' ? (JSON.parse(msg.raw_payload) as unknown) : msg.raw_payload;
        body = (raw && typeof raw === 'object' && !Array.isArray(raw) ? raw : {}) as Json;
        receivedAt = msg.received_at;
      }
      // With the body in hand the message is locked by the pipeline's first
      // statement (or by this update): one round trip less per payment.
      const lockHere = known !== undefined;
      const { result, source } = parse(body);
      if (!result.ok) {
        const outcome: PaymentOutcome = { status: 'unparsed', error: result.error };
        const updated = await run(Prisma.sql`
          UPDATE messages SET status = 'unparsed'::"MessageStatus", parse_error = ${result.error},
                 result = ${JSON.stringify({ parsed: null, outcome })}::jsonb
          WHERE organization_id = ${orgId} AND message_id = ${messageId}::int AND status = 'received'::"MessageStatus"
          RETURNING message_id`);
        if (!updated.length) return null;
        return { ...outcome, message_id: messageId };
      }
      const p = result.payment;
      const code = p.transaction_code.slice(0, 64);
      const payment = {
        transactionCode: code,
        amountCents: parseAmountToCents(p.amount)!,
        currency: p.currency,
        method: 'mobile_money' as const,
        source,
        accountReference: p.account_reference?.slice(0, 100) ?? null,
        payerPhone: p.sender_phone,
        payerName: p.sender_name?.slice(0, 200) ?? null,
        paidAt: paidAt(p, receivedAt!),
        messageId,
        recordedBy: 'system',
        actor: null,
      };
      const finish = { transactionCode: code, amount: p.amount, parsed: p };
      const outcome = lockHere
        ? await this.pipeline.record(run, orgId, payment, finish, true)
        : await this.pipeline.record(run, orgId, payment, finish);
      return outcome ? { ...outcome, message_id: messageId } : null;
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
