import { Injectable } from '@nestjs/common';
import type { OnboardingParsed, OnboardingReply } from '@kidogo/contracts';
import { DatabaseService } from '../database/database.service.js';
import type { AuthUser } from '../common/tenancy.js';
import { ItemsService } from '../items/items.service.js';
import { TemplatesService } from '../templates/templates.service.js';

export const ONBOARDING_DONE = 'Customer onboarding completed successfully!';

@Injectable()
export class OnboardingService {
  constructor(
    private readonly database: DatabaseService,
    private readonly items: ItemsService,
    private readonly templates: TemplatesService,
  ) {}

  /**
   * The device, then the template, in one transaction: if the template
   * step fails (unknown template, unknown customer) the device assignment
   * is rolled back with it, so the customer is never half onboarded.
   *
   * The template becomes the customer's plan, unless the customer is on
   * another one already (or the device has a plan of its own): then it is
   * this device's own plan, and the customer's other devices stay on theirs.
   */
  async onboard(orgId: string, input: OnboardingParsed, actor: AuthUser): Promise<OnboardingReply> {
    return this.database.db.$transaction(async (tx) => {
      const device = await this.items.assignInTx(tx, orgId, input.customer_id, input.item_serial_number, actor, {
        overrideReason: input.override_reason,
      });
      let template = null;
      if (input.template_id !== undefined) {
        const plans = await tx.templateAssignment.findMany({
          where: {
            organization_id: orgId,
            customer_id: input.customer_id,
            is_active: true,
            OR: [{ item_id: null }, { item_id: device.item.item_id }],
          },
          select: { item_id: true, template_id: true },
        });
        const ownPlan = plans.some((p) => p.item_id !== null || p.template_id !== input.template_id);
        template = await this.templates.assignInTx(
          tx,
          orgId,
          {
            customer_id: input.customer_id,
            template_id: input.template_id,
            serial_number: ownPlan ? device.item.serial_number : undefined,
            start_date: input.start_date,
            end_date: input.end_date,
            notes: input.notes,
          },
          actor,
        );
      }
      return { message: ONBOARDING_DONE, item: device.item, template_assignment: template?.assignment ?? null };
    });
  }
}
