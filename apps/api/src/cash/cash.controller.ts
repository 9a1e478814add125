import { Controller, Get, Module, Post, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import {
  CASH_OVERDUE_DAYS,
  ZCashCollectorsReplySchema,
  ZCashHandoverInputSchema,
  ZCashHandoverReplySchema,
  ZCashHandoversExportQuerySchema,
  ZCashLedgerQuerySchema,
  ZCashLedgerReplySchema,
  ZCashSummarySchema,
  ZCashVoidInputSchema,
} from '@kidogo/contracts';
import { z } from 'zod';
import { CurrentUser, OrgId, Roles, type AuthUser } from '../common/tenancy.js';
import { Endpoint, ValidBody, ValidParams, ValidQuery, zPathId } from '../common/validation.js';
import type { HttpReply } from '../common/http.js';
import { CashService } from './cash.service.js';

const ZHandoverParams = zPathId('handover_id');
const ZCollectorParams = z.object({
  username: z.string().min(1, { error: 'is required' }).max(100, { error: 'must be at most 100 characters' }),
});

/** Cash in hand: the cash each user collected and has not handed over yet (README "Cash in hand"). */
@ApiTags('cash')
@Controller('cash')
export class CashController {
  constructor(private readonly cash: CashService) {}

  @Get()
  @Roles('owner', 'admin', 'staff', 'super_admin')
  @Endpoint({
    summary: 'What each user holds in cash: the cash payments they recorded, what they handed over, and since when they hold the rest',
    description:
      'A cash payment recorded by hand (not rejected) is held by whoever recorded it until an owner or admin records its handover. ' +
      `The handovers take the oldest cash first; cash held over ${CASH_OVERDUE_DAYS} days is overdue. The most held first. Staff see only their own.`,
    response: ZCashSummarySchema,
  })
  summary(@OrgId() orgId: string, @CurrentUser() user: AuthUser) {
    return this.cash.summary(orgId, user);
  }

  @Get('collectors')
  @Roles('owner', 'admin', 'staff', 'super_admin')
  @Endpoint({
    summary: "Whom a cash payment can be recorded as collected by (POST /payments collected_by): the organization's active users",
    response: ZCashCollectorsReplySchema,
  })
  collectors(@OrgId() orgId: string) {
    return this.cash.collectorsList(orgId);
  }

  @Get(':username/ledger')
  @Roles('owner', 'admin', 'staff', 'super_admin')
  @Endpoint({
    summary: "A user's cash payments and handovers, newest first, each with what they held after it",
    params: ZCollectorParams,
    query: ZCashLedgerQuerySchema,
    response: ZCashLedgerReplySchema,
    errors: { 400: 'A bad page, limit or currency', 403: "Staff asking for someone else's", 404: 'Nobody of that name collected cash here' },
  })
  ledger(
    @OrgId() orgId: string,
    @CurrentUser() user: AuthUser,
    @ValidParams() p: z.output<typeof ZCollectorParams>,
    @ValidQuery() q: z.output<typeof ZCashLedgerQuerySchema>,
  ) {
    return this.cash.ledger(orgId, user, p.username, q);
  }

  @Get('handovers/export')
  @Roles('owner', 'admin', 'super_admin')
  @Endpoint({
    summary: 'The cash handovers of a period (of one collector) as a CSV file (cash-handovers-YYYY-MM-DD.csv), newest first: to match the bank deposits',
    description: 'Voided handovers are in it with who voided them and why. The export is audited (cash.handovers_exported).',
    query: ZCashHandoversExportQuerySchema,
    produces: 'text/csv',
    errors: { 400: 'A bad from or to, or a collector nobody of this organization is', 403: 'Not an owner or admin' },
  })
  exportHandovers(
    @OrgId() orgId: string,
    @CurrentUser() user: AuthUser,
    @ValidQuery() q: z.output<typeof ZCashHandoversExportQuerySchema>,
    @Res() reply: HttpReply,
  ) {
    return this.cash.exportHandovers(orgId, q, reply, user);
  }

  @Post('handovers')
  @Roles('owner', 'admin', 'super_admin')
  @Endpoint({
    summary: 'Record cash a user handed over (counted at the office, or a bank deposit slip)',
    description: 'Not more than they hold in that currency. Audited (cash.handover_recorded).',
    status: 201,
    body: ZCashHandoverInputSchema,
    response: ZCashHandoverReplySchema,
    errors: {
      400: 'A bad collector, amount (more than they hold), currency (two held and none named), handed_at, reference or note, named',
      403: 'Not an owner or admin',
    },
  })
  handover(@OrgId() orgId: string, @CurrentUser() user: AuthUser, @ValidBody() body: z.output<typeof ZCashHandoverInputSchema>) {
    return this.cash.handover(orgId, user, body);
  }

  @Post('handovers/:handover_id/void')
  @Roles('owner', 'admin', 'super_admin')
  @Endpoint({
    summary: 'Void a handover recorded by mistake: it stays in the ledger, marked, and its cash counts as held again',
    description: 'Audited (cash.handover_voided).',
    params: ZHandoverParams,
    body: ZCashVoidInputSchema,
    response: ZCashHandoverReplySchema,
    errors: { 400: 'No reason given', 403: 'Not an owner or admin', 404: 'Cash handover not found', 409: 'Voided already' },
  })
  voidHandover(
    @OrgId() orgId: string,
    @CurrentUser() user: AuthUser,
    @ValidParams() p: z.output<typeof ZHandoverParams>,
    @ValidBody() body: z.output<typeof ZCashVoidInputSchema>,
  ) {
    return this.cash.voidHandover(orgId, user, p.handover_id, body);
  }
}

@Module({ controllers: [CashController], providers: [CashService] })
export class CashModule {}
