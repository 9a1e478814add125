import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ZNotificationListSchema } from '@kidogo/contracts';
import { Endpoint } from '../common/validation.js';
import { OrgId } from '../common/tenancy.js';
import { NotificationsService } from './notifications.service.js';

@ApiTags('notifications')
@Controller('notifications')
export class NotificationsController {
  constructor(private readonly notifications: NotificationsService) {}

  @Get()
  @Endpoint({ summary: "The organization's 20 newest notifications from the platform", response: ZNotificationListSchema })
  list(@OrgId() orgId: string) {
    return this.notifications.list(orgId);
  }
}
