import { Injectable } from '@nestjs/common';
import { FIND_CUSTOMER_FIELDS, normalizeSerial, type FindCustomerField, type FindQuery, type FindReply } from '@kidogo/contracts';
import { normalizePhone } from '@kidogo/mobile-money';
import { Prisma } from '../generated/prisma/client.js';
import { DatabaseService } from '../database/database.service.js';
import { GRAM_LENGTH, gramsMatch, loweredMatch, textMatch } from '../catalog/search.js';
import { phoneCountry } from '../customers/phone-country.js';

/** What a term may be: each kind is searched only where it can be found. */
export interface FindTerm {
  /** Has a letter: a name (or part of an email, an ID, a serial). */
  letters: boolean;
  /** Only what a phone number is written with, and enough digits to be one's part. */
  phoneLike: boolean;
  /** The term read as a whole phone number in the organization's country, else null. */
  phone: string | null;
  /** Has an @: part of an email address. */
  email: boolean;
}

/** Reads the term (already trimmed, at least FIND_MIN_LENGTH characters). */
export function readTerm(q: string, country: string): FindTerm {
  const digits = q.replace(/\D/g, '');
  const phoneLike = /^[+\d\s().-]+$/.test(q) && digits.length >= GRAM_LENGTH;
  return {
    letters: /\p{L}/u.test(q),
    phoneLike,
    phone: phoneLike && digits.length >= 9 ? normalizePhone(q, country) : null,
    email: q.includes('@'),
  };
}

/**
 * The newest `limit` rows of `table` in the organization that `match`, newest
 * first (id and created_at), found through the match's own index. `table`
 * and `id` are fixed names from the callers, never input.
 */
function newest(table: 'customers' | 'items', id: string, orgId: string, match: Prisma.Sql, limit: number): Prisma.Sql {
  const [t, k] = [Prisma.raw(table), Prisma.raw(id)];
  return Prisma.sql`SELECT ${k}, created_at FROM ${t} WHERE organization_id = ${orgId} AND ${match} ORDER BY created_at DESC, ${k} DESC LIMIT ${limit}`;
}

interface CustomerRow {
  customer_id: number;
  customer_name: string;
  phone_contact: string;
  id_number: string;
  field: number;
  devices: number;
}

interface DeviceRow {
  serial_number: string;
  product_name: string;
  status: FindReply['devices'][number]['status'];
  customer_id: number | null;
  customer_name: string | null;
}

interface PaymentRow {
  payment_id: number;
  transaction_code: string;
  amount: Prisma.Decimal;
  currency: string;
  status: FindReply['payments'][number]['status'];
  hold_reason: string | null;
  paid_at: Date;
  serial_number: string | null;
  customer_id: number | null;
  customer_name: string | null;
}

/**
 * GET /find: the customers, devices and payments a term names, for the
 * header's Find box. Each way of matching is its own statement on its own
 * index, newest first and cut at the limit, so a common term (a county's
 * commonest name) stops after a few index entries and a rare one reads only
 * its few matches from the trigram or grams index:
 *
 * - customers: the name (trigram index), the phone number (the whole number,
 *   read in the organization's country, on phone_normalized; any part of it
 *   as written, on the grams index), the ID number (grams index) and, for a
 *   term with an @, the email (lowered trigram index);
 * - devices: the serial, the same whatever its case, spaces and dashes
 *   first, then any that hold the term (trigram index);
 * - payments: the transaction code, whatever its case (the unique index).
 */
@Injectable()
export class FindService {
  constructor(private readonly database: DatabaseService) {}

  async find(orgId: string, query: FindQuery): Promise<FindReply> {
    const { q, limit } = query;
    const term = readTerm(q, await phoneCountry(this.database.query, orgId));
    const [customers, devices, payments] = await Promise.all([
      this.customers(orgId, q, term, limit),
      this.devices(orgId, q, limit),
      this.payments(orgId, q, limit),
    ]);
    return { q, customers, devices, payments };
  }

  private async customers(orgId: string, q: string, term: FindTerm, limit: number): Promise<FindReply['customers']> {
    const field = (f: FindCustomerField) => FIND_CUSTOMER_FIELDS.indexOf(f);
    const ways: Prisma.Sql[] = [];
    const holding = (f: FindCustomerField, match: Prisma.Sql) =>
      ways.push(Prisma.sql`SELECT customer_id, created_at, ${field(f)}::int AS field FROM (${newest('customers', 'customer_id', orgId, match, limit)}) m`);
    if (term.letters) holding('customer_name', textMatch(['customer_name'], q));
    if (term.phone) holding('phone_contact', Prisma.sql`phone_normalized = ${term.phone}`);
    if (term.phoneLike) holding('phone_contact', gramsMatch('phone_contact', q));
    // An ID number is mostly digits, sometimes with letters (a passport): any term of a grams piece's length.
    if (q.length >= GRAM_LENGTH && !/\s/.test(q)) holding('id_number', gramsMatch('id_number', q));
    if (term.email) holding('email', loweredMatch('email', q));
    if (ways.length === 0) return [];
    const rows = await this.database.query<CustomerRow>(Prisma.sql`
      WITH found AS (
        SELECT DISTINCT ON (customer_id) customer_id, created_at, field
        FROM (${Prisma.join(ways, ' UNION ALL ')}) m ORDER BY customer_id, field
      ), page AS (SELECT * FROM found ORDER BY created_at DESC, customer_id DESC LIMIT ${limit})
      SELECT c.customer_id, c.customer_name, c.phone_contact, c.id_number, page.field,
             (SELECT count(*)::int FROM items i WHERE i.organization_id = ${orgId} AND i.customer_id = c.customer_id AND i.is_assigned) AS devices
      FROM page JOIN customers c ON c.organization_id = ${orgId} AND c.customer_id = page.customer_id
      ORDER BY page.created_at DESC, page.customer_id DESC`);
    return rows.map((r) => ({
      customer_id: r.customer_id,
      customer_name: r.customer_name,
      phone_contact: r.phone_contact,
      id_number: r.id_number,
      matched: FIND_CUSTOMER_FIELDS[r.field] ?? 'customer_name',
      devices: r.devices,
    }));
  }

  private async devices(orgId: string, q: string, limit: number): Promise<FindReply['devices']> {
    const exact = normalizeSerial(q);
    const rows = await this.database.query<DeviceRow>(Prisma.sql`
      WITH exact AS MATERIALIZED (
        SELECT item_id, created_at FROM items WHERE organization_id = ${orgId} AND serial_normalized = ${exact} LIMIT ${limit}
      ), found AS (
        SELECT item_id, created_at, 0 AS exact FROM exact
        UNION ALL
        -- Only when no serial is the term itself: a whole serial's pieces are in every serial of its maker's form.
        SELECT item_id, created_at, 1 FROM (${newest('items', 'item_id', orgId, textMatch(['serial_number'], q), limit)}) m
        WHERE NOT EXISTS (SELECT 1 FROM exact)
      ), page AS (
        SELECT item_id, min(exact) AS exact, max(created_at) AS created_at FROM found GROUP BY item_id
        ORDER BY min(exact), max(created_at) DESC, item_id DESC LIMIT ${limit}
      )
      SELECT i.serial_number, i.product_name, i.status::text AS status, i.customer_id, c.customer_name
      FROM page JOIN items i ON i.organization_id = ${orgId} AND i.item_id = page.item_id
      LEFT JOIN customers c ON i.is_assigned AND c.organization_id = ${orgId} AND c.customer_id = i.customer_id
      ORDER BY page.exact, page.created_at DESC, page.item_id DESC`);
    return rows.map((r) => ({ ...r, customer_id: r.customer_name === null ? null : r.customer_id }));
  }

  private async payments(orgId: string, q: string, limit: number): Promise<FindReply['payments']> {
    // Codes are kept as the gateway wrote them (M-Pesa's in capitals): the term as typed, and in capitals.
    const codes = [...new Set([q, q.toUpperCase()])];
    const rows = await this.database.query<PaymentRow>(Prisma.sql`
      SELECT p.payment_id, p.transaction_code, p.amount, p.currency, p.status::text AS status, p.hold_reason, p.paid_at,
             i.serial_number, p.customer_id, c.customer_name
      FROM payments p
      LEFT JOIN items i ON i.organization_id = ${orgId} AND i.item_id = p.item_id
      LEFT JOIN customers c ON c.organization_id = ${orgId} AND c.customer_id = p.customer_id
      WHERE p.organization_id = ${orgId} AND p.transaction_code IN (${Prisma.join(codes)})
      ORDER BY p.paid_at DESC, p.payment_id DESC LIMIT ${limit}`);
    return rows.map((r) => ({
      payment_id: r.payment_id,
      transaction_code: r.transaction_code,
      amount: r.amount.toFixed(2),
      currency: r.currency,
      status: r.status,
      hold_reason: r.hold_reason,
      paid_at: r.paid_at.toISOString(),
      serial_number: r.serial_number,
      customer_id: r.customer_id,
      customer_name: r.customer_name,
    }));
  }
}
