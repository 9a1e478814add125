import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { createTransport } from 'nodemailer';
import { APP_CONFIG, type AppConfig } from '../config/config.js';

/** What of nodemailer's transport this service uses. */
interface Transport {
  sendMail(mail: { from: string; to: string; subject: string; text: string; attachments?: Attachment[] }): Promise<unknown>;
  close(): void;
}

export interface Attachment {
  filename: string;
  content: Buffer;
  contentType: string;
}

export interface Mail {
  to: string;
  subject: string;
  /** Plain text: what every mail reader shows. */
  text: string;
  attachments?: Attachment[];
}

/**
 * Email through the installation's mail server (SMTP_URL), from MAIL_FROM.
 * Without SMTP_URL nothing is sent and `enabled` is false, so the features
 * that need email say they are not set up instead of failing later.
 */
@Injectable()
export class MailerService implements OnApplicationShutdown {
  private readonly transport: Transport | null;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    const url = config.mail.smtpUrl;
    this.transport = url
      ? createTransport({
          url,
          // A mail server that does not answer must not hold a request's work for minutes (nodemailer waits 2 by default).
          connectionTimeout: 10_000,
          greetingTimeout: 10_000,
          socketTimeout: 30_000,
        })
      : null;
  }

  get enabled(): boolean {
    return this.transport !== null;
  }

  /** Sends one mail; throws what the mail server answered when it refused it. */
  async send(mail: Mail): Promise<void> {
    if (!this.transport) throw new Error('Email is not set up: SMTP_URL is not set');
    await this.transport.sendMail({ from: this.config.mail.from, ...mail });
  }

  onApplicationShutdown(): void {
    this.transport?.close();
  }
}
