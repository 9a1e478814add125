import { z } from 'zod';
import { ZCustomerSchema } from './customers.js';

/**
 * A customer's rights over their personal data (the Kenya Data Protection Act
 * 2019 and laws like it): to see everything the business holds about them,
 * and to have it erased once they owe it nothing. Owners and admins only;
 * both are audited.
 */

export const PERSONAL_DATA_FORMATS = ['json', 'zip'] as const;
export type PersonalDataFormat = (typeof PERSONAL_DATA_FORMATS)[number];

/** GET /customers/{id}/personal-data?format: `json` (the default) the data alone; `zip` the data with the customer's documents' files. */
export const ZPersonalDataQuerySchema = z.object({ format: z.enum(PERSONAL_DATA_FORMATS).default('json') });
export type PersonalDataQuery = z.output<typeof ZPersonalDataQuerySchema>;

/** The path of a document's file in the ZIP copy: its id (names may repeat), its kind and the name it was sent with. */
export const personalDataFilePath = (d: { document_id: number; kind: string; file_name: string }) =>
  `documents/${d.document_id}-${d.kind}-${d.file_name.replace(/[\\/:*?"<>|]/g, '_')}`;

/** GET /customers/{id}/personal-data: everything held about one customer, as a JSON file to hand them. */
export const ZPersonalDataExportSchema = z.object({
  kind: z.literal('kidogo.personal-data'),
  version: z.literal(1),
  generated_at: z.string(),
  generated_by: z.string(),
  organization: z.object({ organization_id: z.string(), name: z.string().nullable() }),
  customer: ZCustomerSchema,
  /** Every device the customer has had, the current ones with `current` true. */
  devices: z.array(
    z.object({
      serial_number: z.string(),
      product_name: z.string(),
      assigned_at: z.string().nullable(),
      unassigned_at: z.string().nullable(),
      current: z.boolean(),
    }),
  ),
  payment_plans: z.array(
    z.object({
      template_name: z.string(),
      serial_number: z.string().nullable(),
      assigned_at: z.string(),
      ended_at: z.string().nullable(),
      is_active: z.boolean(),
    }),
  ),
  payments: z.array(
    z.object({
      payment_id: z.number().int(),
      paid_at: z.string(),
      amount: z.string(),
      currency: z.string(),
      payment_method: z.string(),
      status: z.string(),
      transaction_code: z.string().nullable(),
      reference: z.string().nullable(),
      payer_phone: z.string().nullable(),
      payer_name: z.string().nullable(),
      serial_number: z.string().nullable(),
      days_bought: z.number().int(),
    }),
  ),
  tokens: z.array(
    z.object({
      created_at: z.string(),
      serial_number: z.string(),
      token_type: z.string(),
      token: z.string(),
      days: z.string(),
      generated_by: z.string().nullable(),
    }),
  ),
  /** Texts from the customer's phone or about their payments, and every text sent to them. */
  messages: z.array(
    z.object({
      message_id: z.number().int(),
      at: z.string(),
      phone: z.string().nullable(),
      incoming: z.string().nullable(),
      outgoing: z.string().nullable(),
      sent_by: z.string().nullable(),
    }),
  ),
  collection_contacts: z.array(
    z.object({
      created_at: z.string(),
      serial_number: z.string(),
      outcome: z.string(),
      note: z.string().nullable(),
      promised_on: z.string().nullable(),
    }),
  ),
  repossessions: z.array(
    z.object({
      repossessed_at: z.string(),
      serial_number: z.string(),
      reason: z.string(),
      total_paid: z.string(),
      written_off: z.string().nullable(),
      currency: z.string(),
    }),
  ),
  /** Discounts given off what they had left to pay (README "Discounts"). */
  discounts: z.array(
    z.object({
      given_at: z.string(),
      serial_number: z.string(),
      amount: z.string(),
      currency: z.string(),
      reason: z.string(),
      remaining_before: z.string(),
      remaining_after: z.string(),
    }),
  ),
  /** Their devices swapped for others from stock (README "Device swaps"), their account moving with them. */
  device_swaps: z.array(
    z.object({
      swapped_at: z.string(),
      old_serial_number: z.string(),
      new_serial_number: z.string(),
      reason: z.string(),
      total_paid: z.string(),
      days_moved: z.number().int(),
    }),
  ),
  /** Service tickets about their devices, opened while they had them. */
  service_tickets: z.array(
    z.object({
      ticket_id: z.number().int(),
      opened_at: z.string(),
      serial_number: z.string(),
      category: z.string(),
      status: z.string(),
      description: z.string(),
      resolution: z.string().nullable(),
      resolved_at: z.string().nullable(),
    }),
  ),
  /** M-Pesa Express requests: when staff asked them to pay, on which phone, and what came of it. */
  payment_requests: z.array(
    z.object({
      request_id: z.number().int(),
      created_at: z.string(),
      serial_number: z.string(),
      phone_number: z.string(),
      amount: z.string(),
      status: z.string(),
      mpesa_receipt: z.string().nullable(),
      requested_by: z.string().nullable(),
    }),
  ),
  /** Their dials of the USSD menu: when, from which phone, how far they went and what it ended with. */
  ussd_sessions: z.array(
    z.object({
      started_at: z.string(),
      phone_number: z.string(),
      steps: z.number().int(),
      outcome: z.string(),
      detail: z.string().nullable(),
    }),
  ),
  /**
   * The documents kept about the customer (ID card, photos, agreement): what each is, and in the ZIP copy the file's
   * path in the archive (`documents/…`; null in the JSON copy, where each file is downloaded on its own).
   */
  documents: z.array(
    z.object({
      document_id: z.number().int(),
      file: z.string().nullable(),
      kind: z.string(),
      file_name: z.string(),
      content_type: z.string(),
      size_bytes: z.number().int(),
      note: z.string().nullable(),
      uploaded_by: z.string().nullable(),
      uploaded_at: z.string(),
    }),
  ),
  /** The organization's activity log entries about the customer. */
  activity: z.array(z.object({ at: z.string(), action: z.string(), description: z.string(), actor_username: z.string().nullable() })),
});
export type PersonalDataExport = z.infer<typeof ZPersonalDataExportSchema>;

/** POST /customers/{id}/erase */
export const ZEraseCustomerSchema = z.object({
  reason: z
    .string({ error: 'is required' })
    .trim()
    .min(3, { error: 'must say why, in at least 3 characters' })
    .max(200, { error: 'must be at most 200 characters' }),
});
export type EraseCustomerInput = z.infer<typeof ZEraseCustomerSchema>;

export const ZEraseCustomerReplySchema = z.object({
  message: z.string(),
  /** The customer as it now is: status 'erased', name 'Erased customer', every other personal field empty. */
  customer: ZCustomerSchema,
  /** How many records had personal data taken out of them, by kind. */
  erased: z.object({
    payments: z.number().int(),
    tokens: z.number().int(),
    messages: z.number().int(),
    collection_contacts: z.number().int(),
    service_tickets: z.number().int(),
    /** M-Pesa Express requests whose phone number was taken out. */
    payment_requests: z.number().int(),
    payment_plans: z.number().int(),
    activity_entries: z.number().int(),
    webhook_deliveries: z.number().int(),
    /** Documents (ID card, photos, agreement) deleted. */
    documents: z.number().int(),
    /** Sessions of the USSD menu deleted. */
    ussd_sessions: z.number().int(),
  }),
});
export type EraseCustomerReply = z.infer<typeof ZEraseCustomerReplySchema>;

/** What an erased customer is called from then on. */
export const ERASED_CUSTOMER_NAME = 'Erased customer';
