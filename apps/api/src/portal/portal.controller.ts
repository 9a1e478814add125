import { Controller, Delete, Get, Header, Module, Post, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { z } from 'zod';
import {
  PORTAL_PAY_PER_HOUR,
  ZMessageReplySchema,
  ZPortalLinkCreatedSchema,
  ZPortalLinkReplySchema,
  ZPortalPayInputSchema,
  ZPortalPaymentReplySchema,
  ZPortalViewSchema,
  ZStatementQuerySchema,
} from '@kidogo/contracts';
import { ActivityModule } from '../activity/activity.module.js';
import { StatementService } from '../activity/statement.service.js';
import { Calendar } from '../common/calendar.js';
import { isoDayOf } from '../metrics/period.js';
import { streamReply, type HttpReply } from '../common/http.js';
import { CurrentUser, OrgId, Public, type AuthUser } from '../common/tenancy.js';
import { Endpoint, ValidBody, ValidParams, zPathId } from '../common/validation.js';
import { MpesaExpressModule } from '../mpesa-express/mpesa-express.controller.js';
import { PORTAL_NOT_FOUND, PortalService } from './portal.service.js';

const ZIdParams = zPathId('id');
type IdParams = z.output<typeof ZIdParams>;
const zPageToken = z.string().regex(/^[A-Za-z0-9_-]{20,100}$/, { error: 'is not a page link' });
const ZTokenParams = z.object({ token: zPageToken });
const ZPaymentParams = z.object({ token: zPageToken, request_id: zPathId('request_id').shape['request_id']! });

/** The customer's own page and its link (README "The customer's page"). */
@ApiTags('customers')
@Controller()
export class PortalController {
  constructor(
    private readonly portal: PortalService,
    private readonly statements: StatementService,
    private readonly calendar: Calendar,
  ) {}

  @Get('customers/:id/portal-link')
  @Endpoint({
    summary: "A customer's link to their own page: when it was made and by whom, until when it works, how often it was opened (null for none)",
    params: ZIdParams,
    response: ZPortalLinkReplySchema,
    errors: { 404: 'No such customer in your organization' },
  })
  state(@OrgId() orgId: string, @ValidParams() p: IdParams) {
    return this.portal.state(orgId, p.id);
  }

  @Post('customers/:id/portal-link')
  @Endpoint({
    summary: "Make a link to the customer's own page, working for 30 days; the customer's earlier link stops",
    description:
      'The page shows the customer, without signing in, their devices (credit, what is left to pay), their last 10 payments and their ' +
      "last 10 codes. The token is shown this once (Kidogo keeps its sha256); url is the whole link when PUBLIC_URL is set. Audited (customer.portal_link_created).",
    params: ZIdParams,
    response: ZPortalLinkCreatedSchema,
    status: 201,
    errors: { 404: 'No such customer in your organization', 409: "The customer's personal data was erased" },
  })
  create(@OrgId() orgId: string, @CurrentUser() user: AuthUser, @ValidParams() p: IdParams) {
    return this.portal.create(orgId, user, p.id);
  }

  @Delete('customers/:id/portal-link')
  @Endpoint({
    summary: "Stop the customer's link: it no longer opens their page",
    params: ZIdParams,
    response: ZMessageReplySchema,
    errors: { 404: 'No such customer, or the customer has no link' },
  })
  revoke(@OrgId() orgId: string, @CurrentUser() user: AuthUser, @ValidParams() p: IdParams) {
    return this.portal.revoke(orgId, user, p.id);
  }

  @Get('portal/:token')
  @Public()
  // A customer's data: no proxy or shared cache keeps it (as every API reply).
  @Header('Cache-Control', 'no-store')
  @Endpoint({
    summary: "The customer's own page, by its link: their devices, what is left to pay, their last payments and codes (no sign-in)",
    description:
      'Only what the customer may see of themselves: their first name, each device (credit until, days left, paid, left to pay, the ' +
      "plan's daily price), the last 10 payments applied and the last 10 codes of their devices, and where to pay. A link that is unknown, " +
      'expired or stopped, or whose organization is suspended, is the same 404.',
    params: ZTokenParams,
    response: ZPortalViewSchema,
    errors: { 400: 'Not a page link', 404: PORTAL_NOT_FOUND },
  })
  view(@ValidParams() p: z.output<typeof ZTokenParams>) {
    return this.portal.view(p.token);
  }

  @Post('portal/:token/payments')
  @Public()
  @Header('Cache-Control', 'no-store')
  @Endpoint({
    summary: "Pay Now: the customer asks their own phone to pay for one of their devices, from their page (no sign-in)",
    description:
      "An Ask to Pay request sent by nobody, to the customer's phone on file, with one of the page's pay_with providers: the phone shows " +
      'the M-Pesa, MTN MoMo or Airtel Money prompt and a paid request is recorded like any payment (days, code, SMS). Only the ' +
      `customer's own devices, not yet paid off; one request per device waits at a time; at most ${PORTAL_PAY_PER_HOUR} requests an hour. ` +
      'Follow it with GET /portal/{token}/payments/{request_id}.',
    params: ZTokenParams,
    body: ZPortalPayInputSchema,
    response: ZPortalPaymentReplySchema,
    status: 201,
    errors: {
      400: 'A field is missing or invalid (each one named), or the phone on file cannot be prompted by that provider',
      404: `${PORTAL_NOT_FOUND} Or no such device of the customer's`,
      409: 'The device is paid off; a request for it is still waiting; the provider is not ready',
      429: `More than ${PORTAL_PAY_PER_HOUR} requests in an hour`,
      502: 'The provider refused the request or did not answer',
    },
  })
  pay(@ValidParams() p: z.output<typeof ZTokenParams>, @ValidBody() body: z.output<typeof ZPortalPayInputSchema>) {
    return this.portal.pay(p.token, body);
  }

  @Get('portal/:token/payments/:request_id')
  @Public()
  @Header('Cache-Control', 'no-store')
  @Endpoint({
    summary: 'A payment the customer asked for from their page, and what came of it (the page asks until it is no longer pending)',
    params: ZPaymentParams,
    response: ZPortalPaymentReplySchema,
    errors: { 400: 'Not a page link or a request id', 404: `${PORTAL_NOT_FOUND} Or no such request of the customer's` },
  })
  payment(@ValidParams() p: z.output<typeof ZPaymentParams>) {
    return this.portal.payment(p.token, p.request_id);
  }

  @Get('portal/:token/statement')
  @Public()
  @Header('Cache-Control', 'no-store')
  @Endpoint({
    summary: "The customer's statement of account, all time, as a PDF (statement-YYYY-MM-DD.pdf), by their page's link (no sign-in)",
    description: "The statement staff download (GET /customers/{id}/statement), in the customer's language; the same 404 as the page for a link that does not open it.",
    params: ZTokenParams,
    produces: 'application/pdf',
    errors: { 400: 'Not a page link', 404: PORTAL_NOT_FOUND },
  })
  async statement(@ValidParams() p: z.output<typeof ZTokenParams>, @Res() reply: HttpReply): Promise<void> {
    const link = await this.portal.open(p.token);
    const statement = await this.statements.read(link.organization_id, link.customer_id, ZStatementQuerySchema.parse({}));
    await this.statements.writePdf(streamReply(reply, 'application/pdf', `statement-${isoDayOf(this.calendar.today())}.pdf`), statement);
  }
}

@Module({ imports: [ActivityModule, MpesaExpressModule], controllers: [PortalController], providers: [PortalService] })
export class PortalModule {}
