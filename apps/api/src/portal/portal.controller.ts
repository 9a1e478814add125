import { Controller, Delete, Get, Header, Module, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { z } from 'zod';
import { ZMessageReplySchema, ZPortalLinkCreatedSchema, ZPortalLinkReplySchema, ZPortalViewSchema } from '@kidogo/contracts';
import { CurrentUser, OrgId, Public, type AuthUser } from '../common/tenancy.js';
import { Endpoint, ValidParams, zPathId } from '../common/validation.js';
import { PORTAL_NOT_FOUND, PortalService } from './portal.service.js';

const ZIdParams = zPathId('id');
type IdParams = z.output<typeof ZIdParams>;
const ZTokenParams = z.object({
  token: z.string().regex(/^[A-Za-z0-9_-]{20,100}$/, { error: 'is not a page link' }),
});

/** The customer's own page and its link (README "The customer's page"). */
@ApiTags('customers')
@Controller()
export class PortalController {
  constructor(private readonly portal: PortalService) {}

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
  // A customer's data: no proxy or shared cache keeps it.
  @Header('Cache-Control', 'no-store')
  @Header('Referrer-Policy', 'no-referrer')
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
}

@Module({ controllers: [PortalController], providers: [PortalService] })
export class PortalModule {}
