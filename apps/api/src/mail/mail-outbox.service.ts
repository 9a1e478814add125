import { Injectable, Logger } from '@nestjs/common';
import { Prisma } from '../generated/prisma/client.js';
import { DatabaseService } from '../database/database.service.js';
import { MailerService } from './mailer.service.js';
import { RETRY_DELAYS_S } from '../outbox/outbox.service.js';

/** Wait after the 1st, 2nd, ... failed attempt; after the last, the mail is failed: the SMS outbox's delays. */
export const MAIL_RETRY_DELAYS_S = RETRY_DELAYS_S;
/** A claimed mail not finished within this lease is claimed again (its process died). */
const LEASE_S = 300;
const BATCH = 20;

interface Claimed {
  id: number;
  to_address: string;
  subject: string;
  body: string;
  attempts: number;
}

export interface MailDrain {
  sent: number;
  retrying: number;
  failed: number;
}

/**
 * Email queued in mail_outbox (a user's notifications digest): claimed with
 * FOR UPDATE SKIP LOCKED, so several API processes share the queue without
 * sending one twice, sent through SMTP_URL, and recorded sent, or tried again
 * after 30 s, 2 min, 10 min, 1 h and 6 h, then failed.
 */
@Injectable()
export class MailOutboxService {
  private readonly logger = new Logger('MailOutbox');
  private draining: Promise<MailDrain> | null = null;

  constructor(
    private readonly database: DatabaseService,
    private readonly mailer: MailerService,
  ) {}

  /** Sends everything due now; one drain at a time per process. Without email set up, mail stays queued. */
  drain(): Promise<MailDrain> {
    if (!this.mailer.enabled) return Promise.resolve({ sent: 0, retrying: 0, failed: 0 });
    this.draining ??= this.run().finally(() => (this.draining = null));
    return this.draining;
  }

  private async run(): Promise<MailDrain> {
    const result: MailDrain = { sent: 0, retrying: 0, failed: 0 };
    for (;;) {
      // Claimed by pushing next_attempt_at past the lease: another process skips it until then.
      const batch = await this.database.query<Claimed>(Prisma.sql`
        UPDATE mail_outbox m SET next_attempt_at = now() + make_interval(secs => ${LEASE_S}), attempts = m.attempts + 1
        WHERE m.id IN (
          SELECT id FROM mail_outbox
          WHERE sent_at IS NULL AND failed_at IS NULL AND next_attempt_at <= now()
          ORDER BY next_attempt_at, id LIMIT ${BATCH}
          FOR UPDATE SKIP LOCKED)
        RETURNING m.id, m.to_address, m.subject, m.body, m.attempts`);
      if (!batch.length) return result;
      for (const mail of batch) {
        try {
          await this.mailer.send({ to: mail.to_address, subject: mail.subject, text: mail.body });
          await this.database.query(Prisma.sql`UPDATE mail_outbox SET sent_at = now(), last_error = NULL WHERE id = ${mail.id}::int`);
          result.sent++;
        } catch (e) {
          const error = (e as Error).message.slice(0, 500);
          const delay = MAIL_RETRY_DELAYS_S[mail.attempts - 1];
          if (delay === undefined) {
            await this.database.query(Prisma.sql`UPDATE mail_outbox SET failed_at = now(), last_error = ${error} WHERE id = ${mail.id}::int`);
            result.failed++;
            this.logger.warn(`mail ${mail.id} to ${mail.to_address} failed after ${mail.attempts} attempts: ${error}`);
          } else {
            await this.database.query(Prisma.sql`
              UPDATE mail_outbox SET next_attempt_at = now() + make_interval(secs => ${delay}), last_error = ${error} WHERE id = ${mail.id}::int`);
            result.retrying++;
          }
        }
      }
      if (batch.length < BATCH) return result;
    }
  }
}
