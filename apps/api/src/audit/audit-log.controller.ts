import { Controller, Get, Module, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import {
  AUDIT_CATEGORIES,
  AUDIT_LOG_CSV_COLUMNS,
  ZAuditLogExportQuerySchema,
  ZAuditLogQuerySchema,
  ZAuditLogReplySchema,
  type AuditLogExportQuery,
  type AuditLogQuery,
} from '@kidogo/contracts';
import type { HttpReply } from '../common/http.js';
import { Endpoint, ValidQuery } from '../common/validation.js';
import { CurrentUser, OrgId, Roles, type AuthUser } from '../common/tenancy.js';
import { AuditLogService } from './audit-log.service.js';

const KINDS = Object.entries(AUDIT_CATEGORIES)
  .map(([kind, prefixes]) => `${kind} (${prefixes.join(', ')})`)
  .join('; ');

@ApiTags('settings')
@Roles('owner', 'admin', 'super_admin')
@Controller('audit-log')
export class AuditLogController {
  constructor(private readonly audit: AuditLogService) {}

  @Get()
  @Endpoint({
    summary: "Who did what in the organization, newest first: sign-ins, team changes, payments matched, rejected and reversed, tokens, devices, customers, plans, settings",
    description:
      'A page at a time: pass the reply\'s next_cursor as cursor for the next (older) page; next_cursor is null on the last one. ' +
      `category is a kind of action, by the action's prefix: ${KINDS}. actor is a username (exactly); from and to are business days ` +
      '(TIME_ZONE) or dates and times, on when it happened. details is what the action recorded besides its description.',
    query: ZAuditLogQuerySchema,
    response: ZAuditLogReplySchema,
    errors: { 400: 'A bad cursor, category, actor or date, named', 403: 'Not an owner or admin' },
  })
  list(@OrgId() orgId: string, @ValidQuery() query: AuditLogQuery) {
    return this.audit.list(orgId, query);
  }

  @Get('export')
  @Endpoint({
    summary: 'Every entry the Activity Log filters match, newest first, as a CSV file (activity-log-YYYY-MM-DD.csv)',
    description:
      `The filters of GET /audit-log (category, actor, from, to), without pages. Columns: ${AUDIT_LOG_CSV_COLUMNS.join(', ')}; ` +
      'time is UTC (ISO 8601), details the entry\'s JSON. Streamed: any number of entries. The export is itself recorded (audit_log.exported).',
    query: ZAuditLogExportQuerySchema,
    produces: 'text/csv',
    errors: { 400: 'A bad category, actor or date, named', 403: 'Not an owner or admin' },
  })
  export(@OrgId() orgId: string, @ValidQuery() query: AuditLogExportQuery, @Res() reply: HttpReply, @CurrentUser() user: AuthUser) {
    return this.audit.export(orgId, query, reply, user);
  }
}

@Module({ controllers: [AuditLogController], providers: [AuditLogService] })
export class AuditLogModule {}
