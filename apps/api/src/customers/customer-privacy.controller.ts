import { Controller, Get, Post, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import {
  ZEraseCustomerReplySchema,
  ZEraseCustomerSchema,
  ZPersonalDataExportSchema,
  ZPersonalDataQuerySchema,
  type EraseCustomerInput,
  type PersonalDataQuery,
} from '@kidogo/contracts';
import type { z } from 'zod';
import { streamReply, type HttpReply } from '../common/http.js';
import { CurrentUser, OrgId, Roles, type AuthUser } from '../common/tenancy.js';
import { Endpoint, ValidBody, ValidParams, ValidQuery, zPathId } from '../common/validation.js';
import { CustomerPrivacyService } from './customer-privacy.service.js';

const ZIdParams = zPathId('id');
type IdParams = z.output<typeof ZIdParams>;

/** A customer's rights over their personal data (README "Personal data"): owners and admins. */
@ApiTags('customers')
@Controller()
@Roles('owner', 'admin', 'super_admin')
export class CustomerPrivacyController {
  constructor(private readonly privacy: CustomerPrivacyService) {}

  @Get('customers/:id/personal-data')
  @Endpoint({
    summary: 'Everything held about a customer, to hand them: customer-{id}-personal-data.json, or .zip with their documents\' files',
    description:
      'For a customer who asks what the business holds about them: their details, devices, payment plans, payments, codes, texts, ' +
      'calls and visits, repossessions, the documents kept about them and the activity log entries about them. ' +
      'format=json (the default) is the data alone, each document described; format=zip is one ZIP file with a README.txt, the same data as ' +
      'personal-data.json (each document naming its file) and every document\'s file under documents/. Audited (customer.data_exported).',
    params: ZIdParams,
    query: ZPersonalDataQuerySchema,
    response: ZPersonalDataExportSchema,
    produces: 'application/json, application/zip',
    errors: { 400: 'format is not json or zip', 403: 'Not an owner or admin', 404: 'No such customer in your organization' },
  })
  async export(
    @OrgId() orgId: string,
    @ValidParams() p: IdParams,
    @ValidQuery() q: PersonalDataQuery,
    @CurrentUser() user: AuthUser,
    @Res() reply: HttpReply,
  ): Promise<void> {
    const data = await this.privacy.export(orgId, p.id, user, q.format);
    const filename = `customer-${p.id}-personal-data.${q.format}`;
    if (q.format === 'zip') return this.privacy.writeZip(streamReply(reply, 'application/zip', filename), orgId, data);
    streamReply(reply, 'application/json; charset=utf-8', filename).end(JSON.stringify(data));
  }

  @Post('customers/:id/erase')
  @Endpoint({
    summary: "Erase a customer's personal data at their request, keeping the books",
    description:
      "The customer stays, as 'Erased customer' with status erased, and so do their payments, codes, devices and repossessions with " +
      'their amounts and dates. Their details, the payer names and phones of their payments, the texts from and to their phone and ' +
      'about their payments, the notes of calls and plans, what the activity log says of them and the bodies of webhook deliveries ' +
      'already made about them are erased, and their documents (ID card, photos, agreement) deleted; texts still queued to them are not sent. Refused while they hold a device not yet paid ' +
      'off. Cannot be undone. Sends customer.erased to webhooks; audited (customer.erased, with the reason).',
    params: ZIdParams,
    body: ZEraseCustomerSchema,
    response: ZEraseCustomerReplySchema,
    errors: {
      400: 'reason is missing, too short or too long',
      403: 'Not an owner or admin',
      404: 'No such customer in your organization',
      409: 'The customer still pays for a device, or was already erased',
    },
  })
  erase(@OrgId() orgId: string, @ValidParams() p: IdParams, @ValidBody() body: EraseCustomerInput, @CurrentUser() user: AuthUser) {
    return this.privacy.erase(orgId, p.id, body, user);
  }
}
