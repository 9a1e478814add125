import { Controller, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ZOnboardingReplySchema, ZOnboardingSchema, type OnboardingParsed } from '@kidogo/contracts';
import { CurrentUser, OrgId, type AuthUser } from '../common/tenancy.js';
import { Endpoint, ValidBody } from '../common/validation.js';
import { OnboardingService } from './onboarding.service.js';

@ApiTags('onboarding')
@Controller('onboarding')
export class OnboardingController {
  constructor(private readonly onboarding: OnboardingService) {}

  @Post()
  @Endpoint({
    summary: 'Onboard a customer: assign the device and (optionally) the payment template in one transaction',
    description:
      "The device is assigned as by POST /items/assign: from another customer, it starts a new account. The template becomes the customer's plan, unless the customer is on another one already (or the device has a plan of its own): then it is this device's own plan, and the customer's other devices keep theirs.",
    body: ZOnboardingSchema,
    response: ZOnboardingReplySchema,
    errors: {
      400: 'A field is missing or invalid',
      403: 'override_reason from a staff user: only an owner or admin can give a device against the follow-on sales rule',
      404: 'Unknown customer, device or template: nothing changed',
      409: 'The device cannot be assigned (already assigned, retired or under maintenance), or the follow-on sales rule refuses the customer (GET /customers/{id}/credit-check; an owner or admin can give it with override_reason): nothing changed',
    },
  })
  onboard(@OrgId() orgId: string, @ValidBody() body: OnboardingParsed, @CurrentUser() user: AuthUser) {
    return this.onboarding.onboard(orgId, body, user);
  }
}
