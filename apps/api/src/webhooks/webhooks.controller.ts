import { Controller, Delete, Get, Module, Patch, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { z } from 'zod';
import {
  WEBHOOK_EVENTS,
  ZMessageReplySchema,
  ZWebhookCreateSchema,
  ZWebhookDeliveryListReplySchema,
  ZWebhookDeliveryQuerySchema,
  ZWebhookDeliverySchema,
  ZWebhookEndpointSchema,
  ZWebhookListReplySchema,
  ZWebhookUpdateSchema,
  ZWebhookWithSecretSchema,
  type WebhookDeliveryQuery,
} from '@kidogo/contracts';
import { CurrentUser, OrgId, Roles, type AuthUser } from '../common/tenancy.js';
import { Endpoint, ValidBody, ValidParams, ValidQuery, zPathId } from '../common/validation.js';
import { WEBHOOK_KEEP_DAYS, WebhookDeliveryService } from './webhook-delivery.service.js';
import { WebhooksService, MAX_WEBHOOK_ENDPOINTS } from './webhooks.service.js';

const IdParams = zPathId('id');
const DeliveryParams = IdParams.extend(zPathId('delivery_id').shape);
const NOT_FOUND = 'No such webhook endpoint in your organization';
const EVENTS = Object.entries(WEBHOOK_EVENTS)
  .map(([type, what]) => `${type}: ${what}`)
  .join('; ');
const SIGNATURE =
  'Each delivery is a POST of the JSON body {id, type, created_at, organization_id, data} with the headers Kidogo-Event (the type), ' +
  'Kidogo-Event-Id (the same for every endpoint and every retry: deduplicate on it), Kidogo-Delivery and Kidogo-Signature: ' +
  't={unix time},v1={hex HMAC-SHA256 of "{t}.{body}" with the endpoint\'s secret}. Any 2xx within 10 s is delivered; otherwise it is ' +
  'tried again after 1 min, 5 min, 30 min, 2 h, 6 h and 24 h, then failed.';

@ApiTags('webhooks')
@Roles('owner', 'admin', 'super_admin')
@Controller('webhooks')
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Get()
  @Endpoint({
    summary: "The organization's webhook endpoints, each with its queue and latest attempt, and every event they can be sent",
    description: `Events: ${EVENTS}. ${SIGNATURE}`,
    response: ZWebhookListReplySchema,
    errors: { 403: 'Not an owner or admin' },
  })
  list(@OrgId() orgId: string) {
    return this.webhooks.list(orgId);
  }

  @Post()
  @Endpoint({
    summary: 'Add a webhook endpoint: an address and the events to send it; the reply carries its signing secret, shown this once',
    description:
      `At most ${MAX_WEBHOOK_ENDPOINTS} endpoints per organization. Private and local addresses are refused unless the installation sets ` +
      `WEBHOOK_ALLOW_PRIVATE=true. ${SIGNATURE}`,
    body: ZWebhookCreateSchema,
    response: ZWebhookWithSecretSchema,
    status: 201,
    errors: { 400: 'A bad url, event or description, named', 403: 'Not an owner or admin', 409: `Already ${MAX_WEBHOOK_ENDPOINTS} endpoints` },
  })
  create(@OrgId() orgId: string, @CurrentUser() user: AuthUser, @ValidBody() body: z.output<typeof ZWebhookCreateSchema>) {
    return this.webhooks.create(orgId, user, body);
  }

  @Get(':id')
  @Endpoint({ summary: 'One webhook endpoint', params: IdParams, response: ZWebhookEndpointSchema, errors: { 404: NOT_FOUND } })
  get(@OrgId() orgId: string, @ValidParams() params: { id: number }) {
    return this.webhooks.get(orgId, params.id);
  }

  @Patch(':id')
  @Endpoint({
    summary: 'Change a webhook endpoint: its address, description, events, or pause it (is_active false) and resume it',
    description: 'A paused endpoint is sent no new events; deliveries already queued for it wait, and go out when it is resumed. Audited.',
    params: IdParams,
    body: ZWebhookUpdateSchema,
    response: ZWebhookEndpointSchema,
    errors: { 400: 'A bad url, event or description, named, or nothing to change', 404: NOT_FOUND },
  })
  update(@OrgId() orgId: string, @CurrentUser() user: AuthUser, @ValidParams() params: { id: number }, @ValidBody() body: z.output<typeof ZWebhookUpdateSchema>) {
    return this.webhooks.update(orgId, user, params.id, body);
  }

  @Delete(':id')
  @Endpoint({
    summary: 'Delete a webhook endpoint and its delivery log',
    params: IdParams,
    response: ZMessageReplySchema,
    errors: { 404: NOT_FOUND },
  })
  remove(@OrgId() orgId: string, @CurrentUser() user: AuthUser, @ValidParams() params: { id: number }) {
    return this.webhooks.remove(orgId, user, params.id);
  }

  @Post(':id/rotate-secret')
  @Endpoint({
    summary: "Replace a webhook endpoint's signing secret; the reply carries the new one, shown this once",
    description: 'Every delivery from now on, retries included, is signed with the new secret. Audited.',
    params: IdParams,
    response: ZWebhookWithSecretSchema,
    errors: { 404: NOT_FOUND },
  })
  rotate(@OrgId() orgId: string, @CurrentUser() user: AuthUser, @ValidParams() params: { id: number }) {
    return this.webhooks.rotateSecret(orgId, user, params.id);
  }

  @Post(':id/test')
  @Endpoint({
    summary: 'Send a webhook.test event to the endpoint now, and see what it answered',
    description: 'Sent once, paused or not, signed like every event; listed with its deliveries. Not retried.',
    params: IdParams,
    response: ZWebhookDeliverySchema,
    errors: { 404: NOT_FOUND },
  })
  test(@OrgId() orgId: string, @CurrentUser() user: AuthUser, @ValidParams() params: { id: number }) {
    return this.webhooks.sendTest(orgId, user, params.id);
  }

  @Get(':id/deliveries')
  @Endpoint({
    summary: "A webhook endpoint's deliveries, newest first: each event, its body, every outcome and the endpoint's answer",
    description: `Kept ${WEBHOOK_KEEP_DAYS} days once delivered or failed. A page at a time: pass next_cursor as cursor for the next (older) page.`,
    params: IdParams,
    query: ZWebhookDeliveryQuerySchema,
    response: ZWebhookDeliveryListReplySchema,
    errors: { 400: 'A bad limit, cursor, status or event_type, named', 404: NOT_FOUND },
  })
  deliveries(@OrgId() orgId: string, @ValidParams() params: { id: number }, @ValidQuery() query: WebhookDeliveryQuery) {
    return this.webhooks.deliveries(orgId, params.id, query);
  }

  @Post(':id/deliveries/:delivery_id/redeliver')
  @Endpoint({
    summary: 'Send one delivery again now (a failed one once the endpoint is fixed, or one the receiver lost)',
    description: 'One attempt now; if it fails, the usual retries carry on from its attempts so far.',
    params: DeliveryParams,
    response: ZWebhookDeliverySchema,
    errors: { 404: 'No such delivery of this endpoint in your organization', 409: 'It is being sent at this moment' },
  })
  redeliver(@OrgId() orgId: string, @ValidParams() params: { id: number; delivery_id: number }) {
    return this.webhooks.redeliver(orgId, params.id, params.delivery_id);
  }
}

@Module({ controllers: [WebhooksController], providers: [WebhooksService, WebhookDeliveryService], exports: [WebhookDeliveryService] })
export class WebhooksModule {}
