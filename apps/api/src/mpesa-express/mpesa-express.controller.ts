import { Controller, Get, HttpCode, Module, Post, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import {
  ZAirtelMoneyCallbackReplySchema,
  ZAirtelMoneyCallbackSchema,
  ZAirtelMoneyInputSchema,
  ZAirtelMoneySettingsSchema,
  ZAirtelMoneyTestReplySchema,
  ZMpesaExpressCallbackReplySchema,
  ZMpesaExpressCallbackSchema,
  ZMpesaExpressInputSchema,
  ZMpesaExpressSettingsSchema,
  ZMpesaExpressTestReplySchema,
  ZMtnMomoCallbackReplySchema,
  ZMtnMomoCallbackSchema,
  ZMtnMomoInputSchema,
  ZMtnMomoSettingsSchema,
  ZMtnMomoTestReplySchema,
  ZPaymentRequestInputSchema,
  ZPaymentRequestProvidersReplySchema,
  ZPaymentRequestReplySchema,
  ZPaymentRequestsQuerySchema,
  ZPaymentRequestsReplySchema,
  type AirtelMoneyCallback,
  type MpesaExpressCallback,
  type MtnMomoCallback,
} from '@kidogo/contracts';
import { z } from 'zod';
import { CurrentUser, OrgId, Public, Roles, type AuthUser } from '../common/tenancy.js';
import { Endpoint, ValidBody, ValidParams, ValidQuery, zPathId } from '../common/validation.js';
import { ReceiverModule } from '../receiver/receiver.module.js';
import { DarajaClient } from './daraja.js';
import { MpesaExpressSettingsService } from './mpesa-express-settings.service.js';
import { MomoClient } from './mtn-momo.js';
import { MtnMomoSettingsService } from './mtn-momo-settings.service.js';
import { AirtelMoneyClient } from './airtel-money.js';
import { AirtelMoneySettingsService } from './airtel-money-settings.service.js';
import { PaymentRequestSweepService } from './payment-request-sweep.service.js';
import { PaymentRequestsService } from './payment-requests.service.js';

const ZRequestParams = zPathId('request_id');
type RequestParams = z.output<typeof ZRequestParams>;
const ZCallbackParams = z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{20,64}$/, { error: 'is not a callback address Kidogo gave' }) });

/** Owners and admins set up M-Pesa Express for their organization. */
@ApiTags('settings')
@Roles('owner', 'admin', 'super_admin')
@Controller('settings/mpesa-express')
export class MpesaExpressSettingsController {
  constructor(private readonly settings: MpesaExpressSettingsService) {}

  @Get()
  @Endpoint({
    summary: "The organization's M-Pesa Express (STK push) set-up, secrets masked, and whether requests can be sent",
    response: ZMpesaExpressSettingsSchema,
    errors: { 403: 'Not an owner or admin' },
  })
  read(@OrgId() orgId: string) {
    return this.settings.read(orgId);
  }

  @Put()
  @Endpoint({
    summary: "Set up M-Pesa Express: the Daraja app's consumer key and secret, the paybill or till, the passkey",
    description:
      'consumer_key, consumer_secret and passkey left out, empty, or sent back masked as GET gave them keep their stored value; ' +
      'the first time all three are required. Results are posted to PUBLIC_URL/payg/external/mpesa-express/{a secret per request}.',
    body: ZMpesaExpressInputSchema,
    response: ZMpesaExpressSettingsSchema,
    errors: { 400: 'A field is missing or invalid (each one named)', 403: 'Not an owner or admin' },
  })
  update(@OrgId() orgId: string, @CurrentUser() user: AuthUser, @ValidBody() body: z.output<typeof ZMpesaExpressInputSchema>) {
    return this.settings.update(orgId, user, body);
  }

  @Post('test')
  @HttpCode(200)
  @Endpoint({
    summary: 'Try the stored keys against Safaricom (an access token is asked for; nobody is asked to pay)',
    response: ZMpesaExpressTestReplySchema,
    errors: { 403: 'Not an owner or admin', 409: 'Not set up yet' },
  })
  test(@OrgId() orgId: string) {
    return this.settings.test(orgId);
  }
}

/** Owners and admins set up MTN MoMo's Request to Pay for their organization. */
@ApiTags('settings')
@Roles('owner', 'admin', 'super_admin')
@Controller('settings/mtn-momo')
export class MtnMomoSettingsController {
  constructor(private readonly settings: MtnMomoSettingsService) {}

  @Get()
  @Endpoint({
    summary: "The organization's MTN MoMo (Request to Pay) set-up, secrets masked, and whether requests can be sent",
    response: ZMtnMomoSettingsSchema,
    errors: { 403: 'Not an owner or admin' },
  })
  read(@OrgId() orgId: string) {
    return this.settings.read(orgId);
  }

  @Put()
  @Endpoint({
    summary: "Set up MTN MoMo: the market, the API user, its API key and the Collections subscription key",
    description:
      'api_key and subscription_key left out, empty, or sent back masked as GET gave them keep their stored value; the first time both are ' +
      'required. Results are posted to PUBLIC_URL/payg/external/mtn-momo/{a secret per request}: MTN must have its host as the API user\'s callback host.',
    body: ZMtnMomoInputSchema,
    response: ZMtnMomoSettingsSchema,
    errors: { 400: 'A field is missing or invalid (each one named)', 403: 'Not an owner or admin' },
  })
  update(@OrgId() orgId: string, @CurrentUser() user: AuthUser, @ValidBody() body: z.output<typeof ZMtnMomoInputSchema>) {
    return this.settings.update(orgId, user, body);
  }

  @Post('test')
  @HttpCode(200)
  @Endpoint({
    summary: 'Try the stored API user and keys against MTN (an access token is asked for; nobody is asked to pay)',
    response: ZMtnMomoTestReplySchema,
    errors: { 403: 'Not an owner or admin', 409: 'Not set up yet' },
  })
  test(@OrgId() orgId: string) {
    return this.settings.test(orgId);
  }
}

/** Owners and admins set up Airtel Money's USSD push for their organization. */
@ApiTags('settings')
@Roles('owner', 'admin', 'super_admin')
@Controller('settings/airtel-money')
export class AirtelMoneySettingsController {
  constructor(private readonly settings: AirtelMoneySettingsService) {}

  @Get()
  @Endpoint({
    summary: "The organization's Airtel Money (USSD push) set-up, the secret masked, and whether requests can be sent",
    response: ZAirtelMoneySettingsSchema,
    errors: { 403: 'Not an owner or admin' },
  })
  read(@OrgId() orgId: string) {
    return this.settings.read(orgId);
  }

  @Put()
  @Endpoint({
    summary: "Set up Airtel Money: the market, Airtel's system (staging or production), and the Airtel app's client id and secret",
    description:
      'client_secret left out, empty, or sent back masked as GET gave it keeps its stored value; the first time it is required. ' +
      "Airtel tells the installation how each request ended at PUBLIC_URL/payg/external/airtel-money/callback: set it as the Airtel app's callback URL.",
    body: ZAirtelMoneyInputSchema,
    response: ZAirtelMoneySettingsSchema,
    errors: { 400: 'A field is missing or invalid (each one named)', 403: 'Not an owner or admin' },
  })
  update(@OrgId() orgId: string, @CurrentUser() user: AuthUser, @ValidBody() body: z.output<typeof ZAirtelMoneyInputSchema>) {
    return this.settings.update(orgId, user, body);
  }

  @Post('test')
  @HttpCode(200)
  @Endpoint({
    summary: 'Try the stored client id and secret against Airtel (an access token is asked for; nobody is asked to pay)',
    response: ZAirtelMoneyTestReplySchema,
    errors: { 403: 'Not an owner or admin', 409: 'Not set up yet' },
  })
  test(@OrgId() orgId: string) {
    return this.settings.test(orgId);
  }
}

/** Staff ask a device's customer to pay (README "Asking a customer to pay"). */
@ApiTags('payment-requests')
@Controller()
export class PaymentRequestsController {
  constructor(private readonly requests: PaymentRequestsService) {}

  @Post('payment-requests')
  @Endpoint({
    summary: "Ask a device's customer to pay by M-Pesa Express, MTN MoMo or Airtel Money: their phone shows the prompt for the amount, with the serial number as the account",
    description:
      "provider is mpesa_express (the default), mtn_momo or airtel_money. phone_number defaults to the customer's phone (M-Pesa: a Kenyan number; " +
      "MTN and Airtel: read with the organization's phone country, and a number of the market set up). M-Pesa takes whole shillings; MTN and " +
      'Airtel the market\'s money (whole UGX, RWF, XAF and XOF). One request per device waits for an answer at a time. The result comes from ' +
      'Safaricom, MTN or Airtel a few seconds to a minute later: read it with GET /payment-requests/{request_id}; a paid request is recorded as a ' +
      'payment (days, tokens, the reply SMS) like any mobile-money payment, once by its receipt (the M-Pesa receipt, MTN\'s financial transaction ' +
      "id, Airtel Money's transaction id).",
    body: ZPaymentRequestInputSchema,
    response: ZPaymentRequestReplySchema,
    status: 201,
    errors: {
      400: 'A field is missing or invalid (each one named), or the customer has no phone number the provider can prompt and none was given',
      404: 'No such device in your organization',
      409: 'The device has no customer; the provider is not set up, switched off or PUBLIC_URL is not set; a request for the device is still waiting',
      502: 'Safaricom, MTN or Airtel refused the request or did not answer (its words in the message); the request is kept as failed',
    },
  })
  create(@OrgId() orgId: string, @ValidBody() body: z.output<typeof ZPaymentRequestInputSchema>, @CurrentUser() user: AuthUser) {
    return this.requests.create(orgId, body, user);
  }

  @Get('payment-requests/providers')
  @Endpoint({
    summary: "The organization's ways to ask a customer to pay (M-Pesa Express, MTN MoMo, Airtel Money): whether each is ready, and in what money",
    response: ZPaymentRequestProvidersReplySchema,
  })
  providers(@OrgId() orgId: string) {
    return this.requests.providers(orgId);
  }

  @Get('payment-requests')
  @Endpoint({
    summary: "Ask to Pay requests (M-Pesa Express, MTN MoMo and Airtel Money), newest first: one device's (serial_number) or one customer's (customer_id)",
    query: ZPaymentRequestsQuerySchema,
    response: ZPaymentRequestsReplySchema,
    errors: { 400: 'A bad page, limit or customer_id' },
  })
  list(@OrgId() orgId: string, @ValidQuery() q: z.output<typeof ZPaymentRequestsQuerySchema>) {
    return this.requests.list(orgId, q);
  }

  @Get('payment-requests/:request_id')
  @Endpoint({ summary: 'One Ask to Pay request and what became of it', params: ZRequestParams, response: ZPaymentRequestReplySchema, errors: { 404: 'Not found' } })
  get(@OrgId() orgId: string, @ValidParams() p: RequestParams) {
    return this.requests.get(orgId, p.request_id);
  }

  @Post('payment-requests/:request_id/check')
  @HttpCode(200)
  @Endpoint({
    summary: 'Ask M-Pesa, MTN or Airtel what became of a request whose result has not come (a lost result, a customer who never answered)',
    description:
      "M-Pesa's answer is kept as its result would have been: cancelled, failed, or paid. M-Pesa's answer to a check carries no receipt: " +
      "a paid request takes the payment that came another way (the paybill confirmation, the SMS, the statement) when exactly one of the device's " +
      'payments since the request fits its amount, or waits for the receipt; checking a paid request again looks for that payment again. ' +
      "MTN's and Airtel's answers carry their transaction id, so a paid request is recorded from them. " +
      'While the customer still has the prompt, the request stays pending and the message says so.',
    params: ZRequestParams,
    response: ZPaymentRequestReplySchema,
    errors: {
      404: 'Not found',
      409: 'The provider has already answered the request; it has not reached M-Pesa yet; the provider is not set up (M-Pesa Express, MTN MoMo: or switched off)',
      502: 'The provider did not answer the check (its words in the message); nothing changed',
    },
  })
  check(@OrgId() orgId: string, @ValidParams() p: RequestParams, @CurrentUser() user: AuthUser) {
    return this.requests.check(orgId, p.request_id, user);
  }

  @Public()
  @Post('external/mpesa-express/:token')
  @HttpCode(200)
  @Endpoint({
    summary: "Safaricom's M-Pesa Express result for one request (called by Safaricom, not a person)",
    description:
      'The address is the one given to Safaricom with the request: its last part is a secret only that request has, so nothing else ' +
      'authenticates the call. ResultCode 0 records the payment through the payment pipeline (by MpesaReceiptNumber, once); any other ' +
      'code marks the request cancelled (1032) or failed. The first result of a request counts; resends are acknowledged.',
    params: ZCallbackParams,
    body: ZMpesaExpressCallbackSchema,
    response: ZMpesaExpressCallbackReplySchema,
    errors: { 400: 'Not an STK push result, or not for this request', 404: 'No request has this address' },
  })
  callback(@ValidParams() p: z.output<typeof ZCallbackParams>, @ValidBody() body: MpesaExpressCallback) {
    return this.requests.callback(p.token, body);
  }

  @Public()
  @Put('external/mtn-momo/:token')
  @HttpCode(200)
  @Endpoint({
    summary: "MTN MoMo's Request to Pay result for one request (called by MTN, not a person)",
    description:
      'The address is the one given to MTN with the request (X-Callback-Url): its last part is a secret only that request has, so nothing ' +
      'else authenticates the call. SUCCESSFUL records the payment through the payment pipeline (by financialTransactionId, once, with ' +
      'externalId, the serial number, as the account); FAILED marks the request cancelled (APPROVAL_REJECTED) or failed with its reason; ' +
      'PENDING changes nothing. The first answer of a request counts; resends are acknowledged. MTN sends PUT; POST is taken the same.',
    params: ZCallbackParams,
    body: ZMtnMomoCallbackSchema,
    response: ZMtnMomoCallbackReplySchema,
    errors: { 400: 'Not a Request to Pay result', 404: 'No MTN MoMo request has this address' },
  })
  momoCallback(@ValidParams() p: z.output<typeof ZCallbackParams>, @ValidBody() body: MtnMomoCallback) {
    return this.requests.momoCallback(p.token, body);
  }

  @Public()
  @Post('external/mtn-momo/:token')
  @HttpCode(200)
  @Endpoint({
    summary: "MTN MoMo's Request to Pay result for one request, posted (as PUT /external/mtn-momo/{token})",
    params: ZCallbackParams,
    body: ZMtnMomoCallbackSchema,
    response: ZMtnMomoCallbackReplySchema,
    errors: { 400: 'Not a Request to Pay result', 404: 'No MTN MoMo request has this address' },
  })
  momoCallbackPost(@ValidParams() p: z.output<typeof ZCallbackParams>, @ValidBody() body: MtnMomoCallback) {
    return this.requests.momoCallback(p.token, body);
  }
  @Public()
  @Post('external/airtel-money/callback')
  @HttpCode(200)
  @Endpoint({
    summary: "Airtel Money's word that a USSD push ended (called by Airtel, not a person): the callback URL of every organization's Airtel app",
    description:
      "transaction.id is the id Kidogo gave the push. Kidogo does not act on the post's own status: it asks Airtel (the Transaction Enquiry) " +
      'how the transaction ended, so a post that did not come from Airtel changes nothing. TS records the payment through the payment pipeline ' +
      "(by Airtel Money's transaction id, once, with the serial number as the account); TF marks the request cancelled (the customer refused) or " +
      'failed with its reason. A request already answered, or Airtel not answering the enquiry (the sweep asks again), is acknowledged.',
    body: ZAirtelMoneyCallbackSchema,
    response: ZAirtelMoneyCallbackReplySchema,
    errors: { 400: 'Not a transaction callback (transaction.id missing)', 404: 'No Airtel Money request has this transaction id' },
  })
  airtelCallback(@ValidBody() body: AirtelMoneyCallback) {
    return this.requests.airtelCallback(body);
  }

}

@Module({
  imports: [ReceiverModule],
  controllers: [MpesaExpressSettingsController, MtnMomoSettingsController, AirtelMoneySettingsController, PaymentRequestsController],
  providers: [
    DarajaClient,
    MomoClient,
    AirtelMoneyClient,
    MpesaExpressSettingsService,
    MtnMomoSettingsService,
    AirtelMoneySettingsService,
    PaymentRequestsService,
    PaymentRequestSweepService,
  ],
  exports: [PaymentRequestsService],
})
export class MpesaExpressModule {}
