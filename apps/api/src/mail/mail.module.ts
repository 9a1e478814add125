import { Module } from '@nestjs/common';
import { MailerService } from './mailer.service.js';
import { MailOutboxService } from './mail-outbox.service.js';

/** Email: the mail server (SMTP_URL) and the queue of mail waiting to go. */
@Module({ providers: [MailerService, MailOutboxService], exports: [MailerService, MailOutboxService] })
export class MailModule {}
