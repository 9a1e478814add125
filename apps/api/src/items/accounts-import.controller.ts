import { Controller, Get, Post, Req, Res, UseInterceptors } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ACCOUNT_IMPORT_FIELD, ZAccountsImportQuerySchema, ZAccountsImportReportSchema } from '@kidogo/contracts';
import type { z } from 'zod';
import type { HttpReply, HttpRequest } from '../common/http.js';
import { CurrentUser, OrgId, Roles, type AuthUser } from '../common/tenancy.js';
import { Endpoint, ValidQuery } from '../common/validation.js';
import { CsvUploadInterceptor, requireUpload } from '../catalog/csv-upload.js';
import { AccountsImportService } from './accounts-import.service.js';

@ApiTags('items')
@Controller('items/accounts')
export class AccountsImportController {
  constructor(private readonly accounts: AccountsImportService) {}

  @Get('export')
  @Roles('owner', 'admin', 'super_admin')
  @Endpoint({
    summary: 'Every device given to a customer now, as accounts.csv in the columns of the import (with the customer\'s name and phone)',
    description:
      'serial_number, id_number, template (the plan\'s name), start_date (the day the account began), paid (total paid), ' +
      'credit_until (YYYY-MM-DD HH:MM:SS), in the installation\'s time zone: uploaded to POST /items/accounts/import of another ' +
      'organization that has the same customers, devices and plans, it brings the accounts over as they are.',
    produces: 'text/csv',
    errors: { 403: 'Only owners and admins export the accounts' },
  })
  export(@OrgId() orgId: string, @Res() reply: HttpReply, @CurrentUser() user: AuthUser) {
    return this.accounts.export(orgId, reply, user);
  }

  @Post('import')
  @Roles('owner', 'admin', 'super_admin')
  @UseInterceptors(CsvUploadInterceptor(ACCOUNT_IMPORT_FIELD))
  @Endpoint({
    summary: 'Bring over the accounts of another system: which customer holds each device, since when, what was paid (CSV)',
    description:
      'Columns: serial_number, id_number (the customer), start_date (YYYY-MM-DD or DD/MM/YYYY) required; template (name or ' +
      'number; left out, the customer\'s plan), paid (before; 0), credit_until (a date or "YYYY-MM-DD HH:MM"; left out, the ' +
      'days what was paid bought on the plan). Each row gives the device to its customer as of start_date, with its plan, ' +
      'total paid and credit date; nothing is issued or texted. A device already brought over to the same customer is ' +
      'skipped; a refused row is reported and keeps nothing. dry_run=true checks every row and keeps nothing.',
    query: ZAccountsImportQuerySchema,
    files: [ACCOUNT_IMPORT_FIELD],
    response: ZAccountsImportReportSchema,
    errors: {
      400: 'Not a CSV file, empty, or a required column is missing: nothing imported',
      403: 'Only owners and admins bring accounts over',
      413: 'The file is above the upload limit',
    },
  })
  import(
    @OrgId() orgId: string,
    @Req() req: HttpRequest,
    @CurrentUser() user: AuthUser,
    @ValidQuery() q: z.output<typeof ZAccountsImportQuerySchema>,
  ) {
    return this.accounts.import(orgId, requireUpload(req, ACCOUNT_IMPORT_FIELD), user, q.dry_run);
  }
}
