import { Injectable } from '@nestjs/common';
import { normalizePhone } from '@kidogo/mobile-money';
import { phoneCountryOf, type PhoneCountry, type PhoneCountryInput, type PhoneCountryUpdate } from '@kidogo/contracts';
import { Prisma } from '../generated/prisma/client.js';
import { DatabaseService, type Run } from '../database/database.service.js';
import { Errors } from '../common/errors.js';
import type { AuthUser } from '../common/tenancy.js';
import { PHONE_COUNTRY_LOCK, phoneCountry } from '../customers/phone-country.js';

/** Customers read again per statement when the country changes. */
export const RENORMALIZE_BATCH = 5_000;

/** The setting as the API gives it: the code, its country, a number as people there write it with how it is read, and how many cannot be. */
export function toPhoneCountry(code: string, unreadable: number): PhoneCountry {
  const country = phoneCountryOf(code);
  if (!country) throw new Error(`phone_country_code ${code} is not one of PHONE_COUNTRIES`);
  return {
    phone_country_code: country.code,
    country: country.country,
    example: { written: country.example, read_as: `+${normalizePhone(country.example, country.code)}` },
    unreadable_numbers: unreadable,
  };
}

/** Customers (not erased) whose number has no normal form: by the (organization_id, phone_normalized) index. */
const unreadableSql = (orgId: string) => Prisma.sql`
  SELECT count(*)::int AS n FROM customers WHERE organization_id = ${orgId} AND phone_normalized IS NULL AND status <> 'erased'`;

/**
 * The organization's phone country (README "Phone numbers"): the country
 * whose numbers are written without a country code. Changing it reads every
 * customer's number again in the same transaction, so that a payment from
 * +256 772 123 456 finds the customer whose number was typed 0772 123 456
 * once the organization is in Uganda, and their texts go to that number.
 */
@Injectable()
export class PhoneCountryService {
  constructor(private readonly database: DatabaseService) {}

  async read(orgId: string): Promise<PhoneCountry> {
    const [row] = await this.database.query<{ phone_country_code: string; unreadable: number }>(Prisma.sql`
      SELECT phone_country_code, (${unreadableSql(orgId)}) AS unreadable FROM organizations WHERE organization_id = ${orgId}`);
    if (!row) throw Errors.notFound('Organization');
    return toPhoneCountry(row.phone_country_code, row.unreadable);
  }

  /**
   * Sets the country and, when it changed, reads again the number of every
   * customer written without a country code, in one transaction under the
   * organization's phone-country lock: customers being written meanwhile
   * (registered, edited, imported) wait for it and are read with the new
   * country (lockPhoneCountry).
   */
  async update(orgId: string, user: AuthUser, input: PhoneCountryInput): Promise<PhoneCountryUpdate> {
    const to = input.phone_country_code;
    // Raw statements on one pooled connection: a million rows through Prisma's raw queries cost ten times the CPU.
    const { updated: customersUpdated, unreadable } = await this.database.transaction(async (run) => {
      await run(Prisma.sql`SELECT pg_advisory_xact_lock(${PHONE_COUNTRY_LOCK}::int, hashtext(${orgId}))::text`);
      const from = await phoneCountry(run, orgId);
      const count = async () => (await run<{ n: number }>(unreadableSql(orgId)))[0]!.n;
      if (from === to) return { updated: 0, unreadable: await count() };
      await run(Prisma.sql`UPDATE organizations SET phone_country_code = ${to}, updated_at = now() WHERE organization_id = ${orgId} RETURNING 1`);
      const updated = await this.renormalize(run, orgId, to);
      const unreadable = await count();
      const [before, after] = [phoneCountryOf(from)!, phoneCountryOf(to)!];
      const description =
        `Phone numbers without a country code are read as ${after.country}'s (+${to}), no longer ${before.country}'s (+${from}), ` +
        `set by ${user.username}: ${updated.toLocaleString('en')} customer${updated === 1 ? "'s number" : "s' numbers"} read again` +
        (unreadable ? `, ${unreadable.toLocaleString('en')} not readable as a phone` : '');
      await run(Prisma.sql`
        INSERT INTO audit_logs (organization_id, actor_user_id, actor_username, action, entity_type, entity_id, description, metadata)
        VALUES (${orgId}, ${user.user_id}::int, ${user.username}, 'organization.phone_country', 'organization', ${orgId}, ${description},
                ${JSON.stringify({ from, to, customers_updated: updated, unreadable_numbers: unreadable })}::jsonb)
        RETURNING 1`);
      return { updated, unreadable };
    });
    return { ...toPhoneCountry(to, unreadable), customers_updated: customersUpdated };
  }

  /**
   * Every customer whose number is not written with "+" or "00" (the only
   * ones whose reading depends on the country), RENORMALIZE_BATCH at a time
   * in customer_id order, read again with `code`; only the numbers that read
   * differently are written. Returns how many.
   */
  private async renormalize(run: Run, orgId: string, code: string): Promise<number> {
    let after = 0;
    let updated = 0;
    for (;;) {
      const rows = await run<{ customer_id: number; phone_contact: string; phone_normalized: string | null }>(Prisma.sql`
        SELECT customer_id, phone_contact, phone_normalized FROM customers
        WHERE organization_id = ${orgId} AND customer_id > ${after}::int AND phone_contact !~ '^\\s*(\\+|00)'
        ORDER BY customer_id LIMIT ${RENORMALIZE_BATCH}::int`);
      if (!rows.length) return updated;
      after = rows.at(-1)!.customer_id;
      const ids: number[] = [];
      const phones: (string | null)[] = [];
      for (const r of rows) {
        const phone = normalizePhone(r.phone_contact, code);
        if (phone !== r.phone_normalized) {
          ids.push(r.customer_id);
          phones.push(phone);
        }
      }
      if (ids.length) {
        await run(Prisma.sql`
          UPDATE customers c SET phone_normalized = v.phone
          FROM unnest(${ids}::int[], ${phones}::text[]) AS v(customer_id, phone)
          WHERE c.organization_id = ${orgId} AND c.customer_id = v.customer_id
          RETURNING 1`);
        updated += ids.length;
      }
      if (rows.length < RENORMALIZE_BATCH) return updated;
    }
  }
}
