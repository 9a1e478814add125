import { Module } from '@nestjs/common';
import { NotificationsController } from './notifications.controller.js';
import { NotificationsService } from './notifications.service.js';
import { InboxController } from './inbox.controller.js';
import { InboxService } from './inbox.service.js';
import { NoticeSweepService } from './notice-sweep.service.js';
import { NotificationEmailService } from './notification-email.service.js';
import { DailySummaryService } from './daily-summary.service.js';
import { MailModule } from '../mail/mail.module.js';

@Module({
  imports: [MailModule],
  controllers: [NotificationsController, InboxController],
  providers: [NotificationsService, InboxService, NoticeSweepService, NotificationEmailService, DailySummaryService],
  exports: [NotificationsService],
})
export class NotificationsModule {}
