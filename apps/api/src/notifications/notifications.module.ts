import { Module } from '@nestjs/common';
import { NotificationsController } from './notifications.controller.js';
import { NotificationsService } from './notifications.service.js';
import { InboxController } from './inbox.controller.js';
import { InboxService } from './inbox.service.js';
import { NoticeSweepService } from './notice-sweep.service.js';

@Module({
  controllers: [NotificationsController, InboxController],
  providers: [NotificationsService, InboxService, NoticeSweepService],
  exports: [NotificationsService],
})
export class NotificationsModule {}
