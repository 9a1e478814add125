import type { Customer, CustomerInputParsed, CustomerPayment, CustomerUpdateParsed } from '@kidogo/contracts';
import { normalizePhone } from '@kidogo/mobile-money';
import type { Customer as CustomerRow, Payment as PaymentRow, Prisma } from '../generated/prisma/client.js';
import { dateOnly, money, toDbDate } from '../catalog/format.js';

/** The one place a customer row becomes a reply. */
export function toCustomer(c: CustomerRow): Customer {
  return {
    customer_id: c.id,
    organization_id: c.organization_id,
    customer_name: c.customer_name,
    id_number: c.id_number,
    phone_contact: c.phone_contact,
    email: c.email,
    country: c.country,
    gender: c.gender as Customer['gender'],
    date_of_birth: dateOnly(c.date_of_birth),
    marital_status: c.marital_status as Customer['marital_status'],
    county: c.county,
    constituency: c.constituency,
    ward: c.ward,
    sub_location: c.sub_location,
    village: c.village,
    postal_address: c.postal_address,
    occupation: c.occupation,
    employer_name: c.employer_name,
    education_level: c.education_level as Customer['education_level'],
    preferred_language: c.preferred_language as Customer['preferred_language'],
    customer_type: c.customer_type as Customer['customer_type'],
    agent_id: c.agent_id,
    status: c.status as Customer['status'],
    sms_opted_out_at: c.sms_opted_out_at?.toISOString() ?? null,
    sms_opt_out_source: c.sms_opt_out_source as Customer['sms_opt_out_source'],
    created_at: c.created_at.toISOString(),
    updated_at: c.updated_at.toISOString(),
  };
}

/** The fields a customer.updated event of an opt-out (or opt-in) names as changed. */
export const SMS_OPT_OUT_FIELDS: (keyof Customer)[] = ['sms_opted_out_at', 'sms_opt_out_source'];

/** Columns of the export file, in order; the import reads the same names back. */
export const CUSTOMER_CSV_COLUMNS = [
  'customer_id',
  'customer_name',
  'id_number',
  'phone_contact',
  'email',
  'country',
  'gender',
  'date_of_birth',
  'marital_status',
  'county',
  'constituency',
  'ward',
  'sub_location',
  'village',
  'postal_address',
  'occupation',
  'employer_name',
  'education_level',
  'preferred_language',
  'customer_type',
  'agent_id',
  'status',
  'created_at',
] as const satisfies readonly (keyof Customer)[];

/** Columns the import reads (the export's, less the ones the server sets). */
export const CUSTOMER_IMPORT_COLUMNS = CUSTOMER_CSV_COLUMNS.filter((c) => c !== 'customer_id' && c !== 'created_at');

/**
 * A row to insert, from a validated register / import payload; the phone
 * read with the organization's calling code (lockPhoneCountry).
 */
export function toCustomerCreate(orgId: string, c: CustomerInputParsed, phoneCountry: string): Prisma.CustomerCreateManyInput {
  return {
    organization_id: orgId,
    customer_name: c.customer_name,
    id_number: c.id_number,
    phone_contact: c.phone_contact,
    phone_normalized: normalizePhone(c.phone_contact, phoneCountry),
    email: c.email ?? null,
    country: c.country ?? null,
    gender: c.gender ?? null,
    date_of_birth: toDbDate(c.date_of_birth ?? null),
    marital_status: c.marital_status ?? null,
    county: c.county ?? null,
    constituency: c.constituency ?? null,
    ward: c.ward ?? null,
    sub_location: c.sub_location ?? null,
    village: c.village ?? null,
    postal_address: c.postal_address ?? null,
    occupation: c.occupation ?? null,
    employer_name: c.employer_name ?? null,
    education_level: c.education_level ?? null,
    preferred_language: c.preferred_language,
    customer_type: c.customer_type,
    agent_id: c.agent_id ?? null,
    status: c.status,
  };
}

/** The columns a partial update changes: only the fields that were sent (a phone read with the organization's calling code). */
export function toCustomerUpdate(c: CustomerUpdateParsed, phoneCountry: string): Prisma.CustomerUpdateInput {
  const { organization_id: _ignored, date_of_birth, ...fields } = c;
  const data: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) data[k] = v;
  if (date_of_birth !== undefined) data.date_of_birth = toDbDate(date_of_birth);
  if (c.phone_contact !== undefined) data.phone_normalized = normalizePhone(c.phone_contact, phoneCountry);
  return data as Prisma.CustomerUpdateInput;
}

export function toCustomerPayment(p: PaymentRow & { item: { serial_number: string } | null }): CustomerPayment {
  return {
    payment_id: p.id,
    amount: money(p.amount),
    currency: p.currency,
    status: p.status,
    payment_method: p.payment_method,
    transaction_code: p.transaction_code,
    reference: p.reference,
    item_serial_number: p.item?.serial_number ?? null,
    days_bought: p.days_bought,
    paid_at: p.paid_at.toISOString(),
    created_at: p.created_at.toISOString(),
  };
}

