import { Module } from '@nestjs/common';
import { NotificationsController } from './notifications.controller.js';
import { NotificationsService } from './notifications.service.js';
import { InboxController } from './inbox.controller.js';
import { InboxService } from './inbox.service.js';

@Module({
  controllers: [NotificationsController, InboxController],
  providers: [NotificationsService, InboxService],
  exports: [NotificationsService],
})
export class NotificationsModule {}
