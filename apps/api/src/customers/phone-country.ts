import { phoneCountryOf } from '@kidogo/contracts';
import { Prisma } from '../generated/prisma/client.js';
import type { Run } from '../database/database.service.js';

/**
 * The organization's phone country (organizations.phone_country_code): a
 * number written without a country code ("0772 123 456") is read as one of
 * that country's (README "Phone numbers"). Customers' phone_normalized is
 * read with it when they are written, and read again for every customer
 * when it changes (PhoneCountryService).
 */

/** Advisory lock class of a change of phone country (its second key: hashtext of the organization id). */
export const PHONE_COUNTRY_LOCK = 7_202_615;

/** Kenya's, the default. */
export const DEFAULT_PHONE_COUNTRY = '254';

/** The organization's calling code, for reading a number (Kenya's when the organization is not found). */
export async function phoneCountry(run: Run, orgId: string): Promise<string> {
  const [row] = await run<{ phone_country_code: string }>(
    Prisma.sql`SELECT phone_country_code FROM organizations WHERE organization_id = ${orgId}`,
  );
  return row?.phone_country_code ?? DEFAULT_PHONE_COUNTRY;
}

/**
 * The calling code, in a transaction that writes customers' phone numbers:
 * first waits for a change of the country that is under way to commit (a
 * shared lock, so writers do not wait for each other), then reads it in a
 * statement of its own, which sees that change. Held to the end of the
 * transaction, so a change cannot start until the write commits: no number
 * is written with the old country after the change read them all again.
 */
export async function lockPhoneCountry(run: Run, orgId: string): Promise<string> {
  await run(Prisma.sql`SELECT pg_advisory_xact_lock_shared(${PHONE_COUNTRY_LOCK}::int, hashtext(${orgId}))::text`);
  return phoneCountry(run, orgId);
}

/** A Run over a Prisma transaction client. */
export const prismaRun =
  (tx: { $queryRaw: <T>(sql: Prisma.Sql) => Prisma.PrismaPromise<T> }): Run =>
  <T>(sql: Prisma.Sql) =>
    tx.$queryRaw<T[]>(sql);

/**
 * Why a customer's number cannot be taken: it reads as no phone of the
 * organization's country, nor as one written with a country code, so no
 * payment or text from it would find the customer and no code could reach
 * them. "is not a phone number we can read: write it as in Kenya (0712 345 678) or with its country code (+254…)".
 */
export function unreadablePhone(countryCode: string): string {
  const c = phoneCountryOf(countryCode);
  const like = c ? `as in ${c.country} (${c.example})` : 'as people write it here';
  return `is not a phone number we can read: write it ${like} or with its country code (+${countryCode}…)`;
}
