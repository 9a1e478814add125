import { Controller, Get, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ZReminderSettingsInputSchema, ZReminderSettingsSchema, type ReminderSettingsInput } from '@kidogo/contracts';
import { Endpoint, ValidBody } from '../common/validation.js';
import { CurrentUser, OrgId, Roles, type AuthUser } from '../common/tenancy.js';
import { RemindersService } from './reminders.service.js';

@ApiTags('settings')
@Roles('owner', 'admin', 'super_admin')
@Controller('settings/reminders')
export class RemindersController {
  constructor(private readonly reminders: RemindersService) {}

  @Get()
  @Endpoint({
    summary: "Payment reminders: whether they are on, how many days before a device's credit runs out, from which hour; a preview",
    response: ZReminderSettingsSchema,
    errors: { 403: 'Not an owner or admin' },
  })
  read(@OrgId() orgId: string) {
    return this.reminders.read(orgId);
  }

  @Put()
  @Endpoint({
    summary: 'Turn payment reminders on or off, and set days_before (0-7) and send_hour (0-23 in TIME_ZONE)',
    description:
      "With reminders on, each device given to a customer and not paid off gets one SMS to its customer days_before business days before " +
      'its credit runs out (0: on that day), made at or after send_hour, in the reply language, through the SMS provider; once per date ' +
      'the credit runs out on. Fields left out keep their value.',
    body: ZReminderSettingsInputSchema,
    response: ZReminderSettingsSchema,
    errors: { 400: 'A field out of range, named', 403: 'Not an owner or admin' },
  })
  update(@OrgId() orgId: string, @CurrentUser() user: AuthUser, @ValidBody() body: ReminderSettingsInput) {
    return this.reminders.update(orgId, user, body);
  }
}
