import { z } from 'zod';
import { zOverrideReason } from './credit-check.js';
import { zIdInput, zOptionalText, zRequiredText, zStrictDate } from './fields.js';
import { ZItemSchema } from './items.js';
import { ZTemplateAssignmentSchema } from './templates.js';

/**
 * POST /onboarding: assigns the device to the customer and, when
 * template_id is given, the payment template, in one transaction: both
 * happen or neither does (the same rules as POST /items/assign and
 * POST /payments/templates/assign). The template becomes the customer's
 * plan, unless the customer is on another one already (or the device has a
 * plan of its own): then it is the device's own plan (serial_number in the
 * assignment), and the customer's other devices keep theirs.
 */
export const ZOnboardingSchema = z
  .object({
    customer_id: zIdInput,
    item_serial_number: zRequiredText(100),
    template_id: z.preprocess((v) => (v === null || v === '' ? undefined : v), zIdInput.optional()),
    start_date: zStrictDate,
    end_date: zStrictDate,
    notes: zOptionalText(1000),
    override_reason: zOverrideReason,
    organization_id: z.unknown().optional().describe('Ignored: the organization comes from the token'),
  })
  .superRefine((v, ctx) => {
    if (v.start_date && v.end_date && v.end_date < v.start_date) {
      ctx.addIssue({ code: 'custom', path: ['end_date'], message: 'must not be before start_date' });
    }
  });
export type OnboardingInput = z.input<typeof ZOnboardingSchema>;
export type OnboardingParsed = z.output<typeof ZOnboardingSchema>;

export const ZOnboardingReplySchema = z.object({
  /** 'Customer onboarding completed successfully!' */
  message: z.string(),
  item: ZItemSchema,
  template_assignment: ZTemplateAssignmentSchema.nullable(),
});
export type OnboardingReply = z.infer<typeof ZOnboardingReplySchema>;
