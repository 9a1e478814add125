import { Controller, Get, Post, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import {
  ZCommissionMonthQuerySchema,
  ZCommissionMonthSchema,
  ZCommissionPayAllInputSchema,
  ZCommissionPayAllReplySchema,
  ZCommissionPayoutInputSchema,
  ZCommissionPayoutListSchema,
  ZCommissionPayoutParamsSchema,
  ZCommissionPayoutReplySchema,
  ZCommissionPayoutsQuerySchema,
  ZCommissionVoidInputSchema,
} from '@kidogo/contracts';
import type { z } from 'zod';
import { CurrentUser, OrgId, Roles, type AuthUser } from '../common/tenancy.js';
import { Endpoint, ValidBody, ValidParams, ValidQuery } from '../common/validation.js';
import type { HttpReply } from '../common/http.js';
import { CommissionPayoutsService } from './commission-payouts.service.js';

/** Agent commissions, month by month, and their payouts (README "Agent commissions"). Owners and admins. */
@ApiTags('commissions')
@Roles('owner', 'admin', 'super_admin')
@Controller('commissions')
export class CommissionPayoutsController {
  constructor(private readonly payouts: CommissionPayoutsService) {}

  @Get()
  @Endpoint({
    summary: "Every sales agent's commission for a month and whether it was paid",
    description:
      'The commission is reckoned now as the Agent report does for the month (Settings, Agent Commissions): per_device for each ' +
      "device given to one of the agent's customers in the month plus percent of their successful payments in it. A paid agent " +
      'shows the payout (its amount frozen when recorded) and, when the commission reckoned now differs (a payment reversed or ' +
      'recorded late), the difference. Customers without an agent earn no commission. The most commission first.',
    query: ZCommissionMonthQuerySchema,
    response: ZCommissionMonthSchema,
    errors: { 400: 'A month not written YYYY-MM', 403: 'Not an owner or admin' },
  })
  month(@OrgId() orgId: string, @ValidQuery() q: z.output<typeof ZCommissionMonthQuerySchema>) {
    return this.payouts.month(orgId, q.month);
  }

  @Get('export')
  @Endpoint({
    summary: "A month's agent commissions as a CSV file (commissions-YYYY-MM.csv), one row an agent, as GET /commissions shows them",
    description: 'The export is audited (commission.exported).',
    query: ZCommissionMonthQuerySchema,
    produces: 'text/csv',
    errors: { 400: 'A month not written YYYY-MM', 403: 'Not an owner or admin' },
  })
  export(
    @OrgId() orgId: string,
    @CurrentUser() user: AuthUser,
    @ValidQuery() q: z.output<typeof ZCommissionMonthQuerySchema>,
    @Res() reply: HttpReply,
  ) {
    return this.payouts.export(orgId, q.month, reply, user);
  }

  @Get('payouts')
  @Endpoint({
    summary: "The commission payouts recorded, newest month first (one agent's with ?agent=), and what the standing ones paid",
    description: 'Voided payouts are listed with who voided them and why; total_paid leaves them out.',
    query: ZCommissionPayoutsQuerySchema,
    response: ZCommissionPayoutListSchema,
    errors: { 400: 'A bad agent, page or limit', 403: 'Not an owner or admin' },
  })
  list(@OrgId() orgId: string, @ValidQuery() q: z.output<typeof ZCommissionPayoutsQuerySchema>) {
    return this.payouts.payouts(orgId, q);
  }

  @Post('payouts')
  @Endpoint({
    summary: "Record that an agent's commission for a month that is over was paid: the amount reckoned now, frozen",
    description:
      'Once per agent and month (void a payout recorded by mistake to record it again). Audited (commission.paid) and sent as the ' +
      'commission.paid webhook event, for your books.',
    status: 201,
    body: ZCommissionPayoutInputSchema,
    response: ZCommissionPayoutReplySchema,
    errors: {
      400: 'A bad agent (or one whose customers had no device given and paid nothing in the month), month, reference or note, named',
      403: 'Not an owner or admin',
      409: 'The month is not over yet, it was paid already, or the agent earned nothing in it',
    },
  })
  pay(@OrgId() orgId: string, @CurrentUser() user: AuthUser, @ValidBody() body: z.output<typeof ZCommissionPayoutInputSchema>) {
    return this.payouts.pay(orgId, user, body);
  }

  @Post('payouts/all')
  @Endpoint({
    summary: 'Record every agent still owed for a month that is over as paid, at once (a bulk transfer): a payout each, amounts frozen',
    description:
      'total is the unpaid total you confirmed (GET /commissions: totals.unpaid): when the month reckoned now owes another total (a payment ' +
      'came in, an agent was paid meanwhile), nothing is recorded (409) and you look again. reference (the bank batch or bulk payment code) ' +
      'and note go on every payout. While it runs no agent of the month is paid one by one. Each payout is audited (commission.paid) and ' +
      'sent as a commission.paid webhook event.',
    status: 201,
    body: ZCommissionPayAllInputSchema,
    response: ZCommissionPayAllReplySchema,
    errors: {
      400: 'A bad month, total, reference or note, named',
      403: 'Not an owner or admin',
      409: 'The month is not over yet, no agent is owed, or the total owed is not the one given',
    },
  })
  payAll(@OrgId() orgId: string, @CurrentUser() user: AuthUser, @ValidBody() body: z.output<typeof ZCommissionPayAllInputSchema>) {
    return this.payouts.payAll(orgId, user, body);
  }

  @Post('payouts/:payout_id/void')
  @Endpoint({
    summary: 'Void a commission payout recorded by mistake: it stays listed, marked, and the agent shows as unpaid for the month again',
    description: 'Audited (commission.payout_voided) and sent as the commission.payout_voided webhook event.',
    params: ZCommissionPayoutParamsSchema,
    body: ZCommissionVoidInputSchema,
    response: ZCommissionPayoutReplySchema,
    errors: { 400: 'No reason given', 403: 'Not an owner or admin', 404: 'Commission payout not found', 409: 'Voided already' },
  })
  voidPayout(
    @OrgId() orgId: string,
    @CurrentUser() user: AuthUser,
    @ValidParams() p: z.output<typeof ZCommissionPayoutParamsSchema>,
    @ValidBody() body: z.output<typeof ZCommissionVoidInputSchema>,
  ) {
    return this.payouts.voidPayout(orgId, user, p.payout_id, body);
  }
}
