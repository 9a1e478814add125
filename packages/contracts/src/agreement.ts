import { z } from 'zod';
import { zOptionalText } from './fields.js';

/** The most the seller's details (address, phone, registration) can hold. */
export const AGREEMENT_SELLER_DETAILS_MAX = 300;
/** The most the organization's own terms can hold. */
export const AGREEMENT_EXTRA_TERMS_MAX = 4000;

/**
 * PUT /settings/agreement: what the PAYG agreement (GET /devices/{serial}/
 * agreement) says besides what it takes from the device, the customer and the
 * plan. Every field optional: one left out keeps its value; empty or null
 * clears it.
 * - seller_details: under the organization's name (address, phone, registration);
 * - paybill: the M-Pesa paybill or till number customers pay to (5 to 10 digits),
 *   named in the term on paying;
 * - extra_terms: the organization's own terms, each paragraph (a blank line
 *   apart) a numbered term after the standard ones.
 */
export const ZAgreementSettingsInputSchema = z
  .object({
    seller_details: zOptionalText(AGREEMENT_SELLER_DETAILS_MAX),
    paybill: zOptionalText(10).refine((v) => v == null || /^\d{5,10}$/.test(v), { error: 'must be the paybill or till number: 5 to 10 digits' }),
    extra_terms: zOptionalText(AGREEMENT_EXTRA_TERMS_MAX),
  })
  .strict();
export type AgreementSettingsInput = z.infer<typeof ZAgreementSettingsInputSchema>;

export const ZAgreementSettingsSchema = z.object({
  seller_details: z.string().nullable(),
  paybill: z.string().nullable(),
  extra_terms: z.string().nullable(),
});
export type AgreementSettings = z.infer<typeof ZAgreementSettingsSchema>;

/** The organization's own terms as the agreement numbers them: each paragraph (a blank line apart), trimmed, empty ones left out. */
export const extraTermsOf = (text: string | null | undefined): string[] =>
  (text ?? '')
    .split(/\r?\n\s*\r?\n/)
    .map((p) => p.replace(/\s*\r?\n\s*/g, ' ').trim())
    .filter(Boolean);
