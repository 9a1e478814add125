import { Controller, Get, HttpCode, Module, Post, Put, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import {
  ZUssdParamsSchema,
  ZUssdRequestSchema,
  ZUssdSessionsQuerySchema,
  ZUssdSessionsReplySchema,
  ZUssdSettingsInputSchema,
  ZUssdSettingsReplySchema,
  ZUssdTryInputSchema,
  ZUssdTryReplySchema,
} from '@kidogo/contracts';
import type { z } from 'zod';
import { CurrentUser, OrgId, Public, Roles, type AuthUser } from '../common/tenancy.js';
import { Endpoint, ValidBody, ValidParams, ValidQuery, zPathId } from '../common/validation.js';
import type { HttpReply } from '../common/http.js';
import { MpesaExpressModule } from '../mpesa-express/mpesa-express.controller.js';
import { SettingsModule } from '../settings/settings.module.js';
import { TicketsModule } from '../tickets/tickets.controller.js';
import { UssdService } from './ussd.service.js';

/** Owners and admins turn the customers' USSD menu on and off, try it, and see who dialled it. */
@ApiTags('settings')
@Roles('owner', 'admin', 'super_admin')
@Controller('settings/ussd')
export class UssdSettingsController {
  constructor(private readonly ussd: UssdService) {}

  @Get()
  @Endpoint({
    summary: "The customers' USSD menu: whether it is on, the address to give the USSD gateway, and how much it was used in 7 days",
    description:
      'callback_url is PUBLIC_URL/payg/external/ussd/{key} (only the path when PUBLIC_URL is not set: put this server\'s address before it); ' +
      'null while the menu is off.',
    response: ZUssdSettingsReplySchema,
    errors: { 403: 'Not an owner or admin' },
  })
  get(@OrgId() orgId: string) {
    return this.ussd.settings(orgId);
  }

  @Put()
  @Endpoint({
    summary: 'Turn the USSD menu on (its address is made the first time and kept) or off (customers who dial are told it is not available)',
    description: 'Audited (ussd.enabled, ussd.disabled). Turning it on again keeps the same address.',
    body: ZUssdSettingsInputSchema,
    response: ZUssdSettingsReplySchema,
    errors: { 400: 'enabled missing or not true or false', 403: 'Not an owner or admin' },
  })
  update(@OrgId() orgId: string, @CurrentUser() user: AuthUser, @ValidBody() body: z.output<typeof ZUssdSettingsInputSchema>) {
    return this.ussd.update(orgId, user, body.enabled);
  }

  @Post('rotate')
  @HttpCode(200)
  @Endpoint({
    summary: "A new address for the USSD menu: the old one stops answering at once (404), so the gateway must be given the new one",
    description: 'For an address that leaked. Audited (ussd.address_replaced).',
    response: ZUssdSettingsReplySchema,
    errors: { 403: 'Not an owner or admin' },
  })
  rotate(@OrgId() orgId: string, @CurrentUser() user: AuthUser) {
    return this.ussd.rotate(orgId, user);
  }

  @Post('try')
  @HttpCode(200)
  @Endpoint({
    summary: 'The menu as a phone would see it after the answers in text, without sending a text, asking to pay or opening a ticket',
    description:
      'phone_number is read as the customers\' phones are (Settings, Phone Numbers). would says what the real menu does at that step. ' +
      'Works whether the menu is on or off, so it can be tried before customers are told of it.',
    body: ZUssdTryInputSchema,
    response: ZUssdTryReplySchema,
    errors: { 400: 'phone_number missing, or text too long', 403: 'Not an owner or admin' },
  })
  try(@OrgId() orgId: string, @ValidBody() body: z.output<typeof ZUssdTryInputSchema>) {
    return this.ussd.try(orgId, body);
  }

  @Get('sessions')
  @Endpoint({
    summary: 'Who dialled the USSD menu, newest first: the phone, the customer it named, how far they went and what it ended with',
    query: ZUssdSessionsQuerySchema,
    response: ZUssdSessionsReplySchema,
    errors: { 400: 'A bad limit or before', 403: 'Not an owner or admin' },
  })
  sessions(@OrgId() orgId: string, @ValidQuery() q: z.output<typeof ZUssdSessionsQuerySchema>) {
    return this.ussd.sessions(orgId, q);
  }
}

const ZCustomerParams = zPathId('id');

/** A customer's own sessions on the USSD menu, on their page: any user (who answers their calls). */
@ApiTags('customers')
@Controller('customers')
export class CustomerUssdController {
  constructor(private readonly ussd: UssdService) {}

  @Get(':id/ussd-sessions')
  @Endpoint({
    summary: "The customer's sessions on the USSD menu, newest first: when, from which phone, how far they went and what came of it",
    description: 'Those their phone named them in (a shared phone: once they gave their ID number). For the call where a customer says the menu did not work.',
    params: ZCustomerParams,
    query: ZUssdSessionsQuerySchema,
    response: ZUssdSessionsReplySchema,
    errors: { 400: 'A bad limit or before', 404: 'No such customer in your organization' },
  })
  list(@OrgId() orgId: string, @ValidParams() p: z.output<typeof ZCustomerParams>, @ValidQuery() q: z.output<typeof ZUssdSessionsQuerySchema>) {
    return this.ussd.customerSessions(orgId, p.id, q);
  }
}

const GATEWAY = `Called by the USSD gateway (Africa's Talking, or one that speaks its callback), not a person, at each step of a session: the address is the organization's secret (GET /payg/settings/ussd). Form-encoded or JSON: sessionId, serviceCode, phoneNumber, networkCode, text (every answer so far, joined by *). The reply is text/plain: "CON " and a screen that waits for an answer, or "END " and the last one, at most 182 characters.

The phone names the customer (read as the organization's phone numbers are); a phone on several accounts is asked for the customer's ID number first. The menu: 1. My balance (each device's credit and what is left to pay), 2. My last code (shown, and texted when an SMS provider is set up), 3. Pay now (when M-Pesa Express, MTN MoMo or Airtel Money can prompt this phone: the device, then the amount; the phone gets the PIN prompt, as from the customer's own page), 4. Report a problem (opens a service ticket, or answers with the one still open). 0 goes back, 00 to the start. A step the gateway posts again is answered the same and not done twice. A menu turned off, or an organization suspended, answers END that the service is not available.`;

@ApiTags('receiver')
@Controller('external/ussd')
export class UssdGatewayController {
  constructor(private readonly ussd: UssdService) {}

  @Public()
  @Post(':key')
  @Endpoint({
    summary: "One step of a customer's session on the organization's USSD menu (called by the USSD gateway)",
    description: GATEWAY,
    params: ZUssdParamsSchema,
    body: ZUssdRequestSchema,
    formEncoded: true,
    produces: 'text/plain',
    errors: { 400: 'sessionId or phoneNumber missing, or text too long, named', 404: 'No USSD menu has this address' },
  })
  async step(@ValidParams() p: z.output<typeof ZUssdParamsSchema>, @ValidBody() body: z.output<typeof ZUssdRequestSchema>, @Res() reply: HttpReply) {
    const text = await this.ussd.answer(p.key, body);
    reply.status(200).header('content-type', 'text/plain; charset=utf-8').send(text);
  }
}

@Module({
  imports: [MpesaExpressModule, SettingsModule, TicketsModule],
  controllers: [UssdSettingsController, CustomerUssdController, UssdGatewayController],
  providers: [UssdService],
})
export class UssdModule {}
