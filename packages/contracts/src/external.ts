import { z } from 'zod';
import { ZMoneySchema, ZOffsetPaginationSchema, zQueryInt, zQueryOffset } from './common.js';

export const ZOdysseyQuerySchema = z.object({
  limit: zQueryInt({ default: 100, min: 1, max: 1000 }),
  offset: zQueryOffset(),
});
export type OdysseyQuery = z.infer<typeof ZOdysseyQuerySchema>;

export const ZOdysseyDeviceSchema = z.object({
  serial_number: z.string(),
  product_name: z.string(),
  status: z.string(),
  total_paid: ZMoneySchema,
  paid_off: z.boolean(),
  activated_at: z.string().nullable(),
});

export const ZOdysseyCustomerSchema = z.object({
  customer_id: z.number().int(),
  customer_name: z.string(),
  phone_contact: z.string(),
  county: z.string().nullable(),
  devices: z.array(ZOdysseyDeviceSchema),
  /** Completed payments of the customer. */
  total_paid: ZMoneySchema,
  last_payment_at: z.string().nullable(),
});
export type OdysseyCustomer = z.infer<typeof ZOdysseyCustomerSchema>;

export const ZOdysseyCustomersReplySchema = z.object({ data: z.array(ZOdysseyCustomerSchema), pagination: ZOffsetPaginationSchema });
export type OdysseyCustomersReply = z.infer<typeof ZOdysseyCustomersReplySchema>;
