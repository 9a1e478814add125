import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { MPESA_EXPRESS_EXPIRES_AFTER_S } from '@kidogo/contracts';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { DatabaseService } from '../database/database.service.js';
import { Prisma } from '../generated/prisma/client.js';
import { PaymentRequestsService } from './payment-requests.service.js';

/** Requests older than this are left to staff (Check with M-Pesa): Safaricom keeps a push's answer for about a day. */
const LOOK_BACK_S = 24 * 3600;
/** The most requests one sweep asks M-Pesa about. */
const BATCH = 50;

export interface PaymentRequestSweepResult {
  /** Requests M-Pesa was asked about. */
  checked: number;
  /** Of those, the ones M-Pesa answered (paid, cancelled or failed). */
  answered: number;
  /** Those M-Pesa could not be asked about (not set up any more, Safaricom not answering): left to staff. */
  failed: number;
}

/**
 * The Ask to Pay requests whose result never came (Safaricom's, MTN's or Airtel's post lost, or never sent): 3 minutes after a
 * request was sent, when the customer's prompt has long timed out, Kidogo asks M-Pesa, MTN or Airtel once what became of it
 * (the same check as Check with M-Pesa, MTN MoMo or Airtel Money, by nobody), every MPESA_EXPRESS_SWEEP_MS, on the processes that run the
 * background work. Each request is claimed by one process (its auto_checked_at, taken with SKIP LOCKED), so two
 * processes never ask about the same request; one M-Pesa could not answer is left to staff, and its sender is told
 * that no answer came.
 */
@Injectable()
export class PaymentRequestSweepService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('MpesaExpress');
  private timer: NodeJS.Timeout | null = null;
  private sweeping: Promise<PaymentRequestSweepResult> | null = null;

  constructor(
    private readonly database: DatabaseService,
    private readonly requests: PaymentRequestsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** One sweep at a time per process. */
  sweep(): Promise<PaymentRequestSweepResult> {
    this.sweeping ??= this.run().finally(() => (this.sweeping = null));
    return this.sweeping;
  }

  private async run(): Promise<PaymentRequestSweepResult> {
    const due = await this.database.query<{ organization_id: string; request_id: number }>(Prisma.sql`
      UPDATE payment_requests r SET auto_checked_at = now()
      FROM (
        SELECT organization_id, request_id FROM payment_requests
        WHERE status = 'pending' AND auto_checked_at IS NULL AND checkout_request_id IS NOT NULL
          AND created_at < now() - make_interval(secs => ${MPESA_EXPRESS_EXPIRES_AFTER_S})
          AND created_at > now() - make_interval(secs => ${LOOK_BACK_S})
        ORDER BY created_at LIMIT ${BATCH}
        FOR UPDATE SKIP LOCKED
      ) due
      WHERE r.organization_id = due.organization_id AND r.request_id = due.request_id
      RETURNING r.organization_id, r.request_id`);
    const result: PaymentRequestSweepResult = { checked: due.length, answered: 0, failed: 0 };
    for (const r of due) {
      try {
        const { data } = await this.requests.check(r.organization_id, r.request_id, null);
        if (data.status !== 'pending' && data.status !== 'expired') {
          result.answered++;
          continue;
        }
      } catch (e) {
        result.failed++;
        this.logger.warn(`request ${r.organization_id}/${r.request_id}: the provider could not be asked: ${(e as Error).message}`);
      }
      // No answer even when asked: the sender is told so, once (the sweep asks about a request once).
      await this.requests.tellNoAnswer(r.organization_id, r.request_id);
    }
    return result;
  }

  onApplicationBootstrap(): void {
    // The background work runs where the outbox does (OUTBOX_ENABLED): off on web-only processes.
    if (!this.config.outbox.enabled) return;
    this.timer = setInterval(
      () =>
        void this.sweep()
          .then((r) => r.checked && this.logger.log(`asked M-Pesa, MTN or Airtel about ${r.checked} request(s) without a result: ${r.answered} answered, ${r.failed} not`))
          .catch((e) => this.logger.error(`payment request sweep failed: ${(e as Error).message}`)),
      this.config.mpesaExpressSweepMs,
    );
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.sweeping?.catch(() => undefined);
  }
}
