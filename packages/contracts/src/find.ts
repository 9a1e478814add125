import { z } from 'zod';
import { ZMoneySchema, zQueryInt } from './common.js';
import { ZItemStatusSchema } from './items.js';
import { ZPaymentStatusSchema } from './payments.js';

/** The fewest characters Find searches with: a shorter term matches too much to be a lookup, and has no trigram. */
export const FIND_MIN_LENGTH = 3;
export const FIND_MAX_LENGTH = 100;

/**
 * GET /find: one box for what a caller on the phone gives staff: a name, a
 * phone number in any form, an ID number, a device's serial or a payment's
 * transaction code. `limit` caps each group.
 */
export const ZFindQuerySchema = z.object({
  q: z
    .string({ error: 'is required' })
    .trim()
    .min(FIND_MIN_LENGTH, { error: `must be at least ${FIND_MIN_LENGTH} characters` })
    .max(FIND_MAX_LENGTH, { error: `must be at most ${FIND_MAX_LENGTH} characters` }),
  limit: zQueryInt({ default: 5, min: 1, max: 20 }),
});
export type FindQuery = z.output<typeof ZFindQuerySchema>;

/** Which of a customer's fields the term was found in, the first of these that holds it. */
export const FIND_CUSTOMER_FIELDS = ['customer_name', 'phone_contact', 'id_number', 'email'] as const;
export const ZFindCustomerFieldSchema = z.enum(FIND_CUSTOMER_FIELDS);
export type FindCustomerField = z.infer<typeof ZFindCustomerFieldSchema>;

export const ZFindCustomerSchema = z.object({
  customer_id: z.number().int(),
  customer_name: z.string(),
  phone_contact: z.string(),
  id_number: z.string(),
  matched: ZFindCustomerFieldSchema,
  /** How many devices the customer holds now. */
  devices: z.number().int(),
});
export type FindCustomer = z.infer<typeof ZFindCustomerSchema>;

export const ZFindDeviceSchema = z.object({
  serial_number: z.string(),
  product_name: z.string(),
  status: ZItemStatusSchema,
  customer_id: z.number().int().nullable(),
  customer_name: z.string().nullable(),
});
export type FindDevice = z.infer<typeof ZFindDeviceSchema>;

export const ZFindPaymentSchema = z.object({
  payment_id: z.number().int(),
  transaction_code: z.string(),
  amount: ZMoneySchema,
  currency: z.string(),
  status: ZPaymentStatusSchema,
  /** Waiting for staff in Held Payments (the reason), or null once applied. */
  hold_reason: z.string().nullable(),
  paid_at: z.string(),
  serial_number: z.string().nullable(),
  customer_id: z.number().int().nullable(),
  customer_name: z.string().nullable(),
});
export type FindPayment = z.infer<typeof ZFindPaymentSchema>;

/**
 * Each group newest first, at most `limit` of each: customers whose name,
 * phone, ID number or email holds the term (a phone number written in any
 * form also finds its customer exactly), devices whose serial holds it,
 * and the payment whose transaction code it is (whatever the case).
 */
export const ZFindReplySchema = z.object({
  q: z.string(),
  customers: z.array(ZFindCustomerSchema),
  devices: z.array(ZFindDeviceSchema),
  payments: z.array(ZFindPaymentSchema),
});
export type FindReply = z.infer<typeof ZFindReplySchema>;
