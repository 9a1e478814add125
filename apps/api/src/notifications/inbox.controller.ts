import { Controller, Get, Post, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import {
  MARK_READ_MAX_IDS,
  USER_NOTIFICATION_KINDS,
  ZMarkNotificationsReadReplySchema,
  ZMarkNotificationsReadSchema,
  ZMyNotificationsQuerySchema,
  ZMyNotificationsReplySchema,
  ZNotificationSettingsInputSchema,
  ZNotificationSettingsSchema,
} from '@kidogo/contracts';
import type { z } from 'zod';
import { CurrentUser, OrgId, type AuthUser } from '../common/tenancy.js';
import { Endpoint, ValidBody, ValidQuery } from '../common/validation.js';
import { InboxService } from './inbox.service.js';

/** The signed-in user's own notifications: the header bell's "For you" (README "Your notifications"). */
@ApiTags('notifications')
@Controller('me')
export class InboxController {
  constructor(private readonly inbox: InboxService) {}

  @Get('notifications')
  @Endpoint({
    summary: "The caller's own notifications, newest first, with how many are unread",
    description:
      `kind: ${USER_NOTIFICATION_KINDS.join(', ')}. Written when someone else assigns the caller a service ticket, ` +
      'resolves a ticket the caller opened, or opens again a ticket assigned to the caller; and on the day of a promise to pay ' +
      'the caller logged, and the day after when it was not kept. Page back with before=next_before.',
    query: ZMyNotificationsQuerySchema,
    response: ZMyNotificationsReplySchema,
    errors: { 400: 'A bad limit, unread or before' },
  })
  list(@OrgId() orgId: string, @CurrentUser() user: AuthUser, @ValidQuery() q: z.output<typeof ZMyNotificationsQuerySchema>) {
    return this.inbox.list(orgId, user, q);
  }

  @Post('notifications/read')
  @Endpoint({
    summary: "Mark the caller's notifications read: those named by ids, or all of them",
    description: `At most ${MARK_READ_MAX_IDS} ids; ids of notifications that are not the caller's are passed over.`,
    body: ZMarkNotificationsReadSchema,
    response: ZMarkNotificationsReadReplySchema,
    errors: { 400: 'ids not a list of notification ids' },
  })
  markRead(@OrgId() orgId: string, @CurrentUser() user: AuthUser, @ValidBody() body: z.output<typeof ZMarkNotificationsReadSchema>) {
    return this.inbox.markRead(orgId, user, body);
  }

  @Get('notification-settings')
  @Endpoint({ summary: 'The kinds of their own notifications the caller turned off (every kind is on until turned off)', response: ZNotificationSettingsSchema })
  settings(@OrgId() orgId: string, @CurrentUser() user: AuthUser) {
    return this.inbox.settings(orgId, user);
  }

  @Put('notification-settings')
  @Endpoint({
    summary: 'Set the kinds of their own notifications the caller is not told of, and those they are also emailed: whole lists',
    description:
      `muted and emailed: any of ${USER_NOTIFICATION_KINDS.join(', ')} ([] turns every kind on; emails none). Notifications already ` +
      'written stay. The emailed kinds go to the account\'s email address in one email a minute (NOTIFICATION_EMAIL_MS) listing the new ' +
      'ones not read yet, starting with those after emailing is turned on; emailed left out stays as it is.',
    body: ZNotificationSettingsInputSchema,
    response: ZNotificationSettingsSchema,
    errors: {
      400: 'muted or emailed not a list of notification kinds',
      409: 'emailed kinds chosen, but email is not set up on this installation or the account has no email address',
    },
  })
  updateSettings(@OrgId() orgId: string, @CurrentUser() user: AuthUser, @ValidBody() body: z.output<typeof ZNotificationSettingsInputSchema>) {
    return this.inbox.updateSettings(orgId, user, body);
  }
}
