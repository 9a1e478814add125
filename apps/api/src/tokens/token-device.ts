import { MAX_UNUSED_OLDER_TOKENS } from '@kidogo/openpaygo';
import type { AuthUser } from '../common/tenancy.js';
import { Prisma } from '../generated/prisma/client.js';
import { devicePlanJoin } from '../templates/device-plan.js';

/**
 * A device row locked for token work (FOR UPDATE), with everything the
 * token code and the payment pipeline need in the same statement: its
 * customer, its maker's token settings and its payment plan (its own, else
 * its customer's: devicePlanJoin). One round trip instead of four.
 */
export interface LockedItem {
  item_id: number;
  serial_number: string;
  status: string;
  product_oem: string | null;
  is_assigned: boolean;
  customer_id: number | null;
  customer_name: string | null;
  customer_phone: string | null;
  customer_phone_normalized: string | null;
  assigned_at: Date | null;
  secret_key_enc: string;
  starting_code_enc: string;
  token_count: number;
  credit_until: Date | null;
  activated_at: Date | null;
  paid_off_at: Date | null;
  price: Prisma.Decimal;
  credit: Prisma.Decimal;
  total_paid: Prisma.Decimal;
  /** What discounts took off its payoff price on this account (README "Discounts"). */
  discount: Prisma.Decimal;
  /** The maker's settings (product_oem_configs); null when the maker has none. */
  oem_restricted_digit_set: boolean | null;
  oem_extended_token: boolean | null;
  oem_value_divider: Prisma.Decimal | null;
  /** The device's payment plan (its own, else its customer's); null when there is none. */
  tpl_id: number | null;
  tpl_currency: string | null;
  tpl_deposit_made: Prisma.Decimal | null;
  tpl_activation_price: Prisma.Decimal | null;
  tpl_daily_price: Prisma.Decimal | null;
  tpl_grace_period_days: number | null;
  tpl_free_code_price: Prisma.Decimal | null;
  /** A payment id taken from the sequence in the same statement, when asked for. */
  next_payment_id?: number | null;
  /** The organization's reply language ('en', 'sw' or 'fr'). */
  org_reply_language: string;
  /** The name its texts to customers begin with, null for Kidogo (0089_text_name). */
  org_text_name: string | null;
  /** The organization's calling code, for a number written without one (README "Phone numbers"). */
  org_phone_country_code: string;
}

/**
 * Locks the devices of the organization matching `where` (on `i`), at most
 * `limit`, in `order`. The joined rows are read with the lock's snapshot;
 * what must be current after waiting for the lock (the token log) is read
 * by a later statement.
 */
export function lockItemsSql(
  orgId: string,
  where: Prisma.Sql,
  opts: { order?: Prisma.Sql; limit?: number; nextPaymentId?: boolean } = {},
): Prisma.Sql {
  return Prisma.sql`
    SELECT i.item_id, i.serial_number, i.status::text AS status, i.product_oem, i.is_assigned, i.customer_id,
           c.customer_name, c.phone_contact AS customer_phone, c.phone_normalized AS customer_phone_normalized,
           i.assigned_at, i.secret_key_enc, i.starting_code_enc, i.token_count, i.credit_until, i.activated_at,
           i.paid_off_at, i.price, i.credit, i.total_paid, i.discount,
           o.restricted_digit_set AS oem_restricted_digit_set, o.extended_token AS oem_extended_token,
           o.value_divider AS oem_value_divider,
           t.template_id AS tpl_id, t.currency AS tpl_currency, t.deposit_made AS tpl_deposit_made,
           t.activation_price AS tpl_activation_price, t.daily_price AS tpl_daily_price,
           t.grace_period_days AS tpl_grace_period_days, t.free_code_price AS tpl_free_code_price,
           org.reply_language AS org_reply_language, org.text_name AS org_text_name, org.phone_country_code AS org_phone_country_code
           ${opts.nextPaymentId ? Prisma.sql`, nextval(pg_get_serial_sequence('payments', 'payment_id'))::int AS next_payment_id` : Prisma.empty}
    FROM items i
    LEFT JOIN customers c ON c.organization_id = i.organization_id AND c.customer_id = i.customer_id
    LEFT JOIN product_oem_configs o ON o.organization_id = i.organization_id AND o.product_oem = i.product_oem
    JOIN organizations org ON org.organization_id = i.organization_id
    ${devicePlanJoin()}
    WHERE i.organization_id = ${orgId} AND ${where}
    ${opts.order ?? Prisma.empty}
    LIMIT ${opts.limit ?? 1}::int
    FOR UPDATE OF i`;
}

/**
 * The locked device's payoff price (payoffSql, in TypeScript): its plan's free-code price, else its own price when
 * above 0, less the discounts on its account, never below 0; null when it has neither price.
 */
export function lockedPayoff(item: Pick<LockedItem, 'tpl_free_code_price' | 'price' | 'discount'>): Prisma.Decimal | null {
  const base = item.tpl_free_code_price ?? (item.price.greaterThan(0) ? item.price : null);
  return base === null ? null : Prisma.Decimal.max(base.minus(item.discount), 0);
}

/** A device's id by serial: exact first, else ignoring case, spaces and dashes. */
export const serialWhere = (serial: string) => {
  const exact = serial.trim();
  const loose = serial.toUpperCase().replace(/[\s-]/g, '');
  return {
    where: Prisma.sql`(i.serial_number = ${exact} OR i.serial_normalized = ${loose})`,
    order: Prisma.sql`ORDER BY (i.serial_number = ${exact}) DESC`,
    exact,
  };
};

/** A token made, not yet written: what the token log, the audit log and the reply need. */
export interface PlannedToken {
  kind: 'add_time' | 'activation' | 'set_time' | 'unlock' | 'counter_sync';
  token: string;
  count: number;
  value: number;
  days: number;
  amountPaid: string | null;
}

export interface TokenWriteContext {
  orgId: string;
  item: LockedItem;
  generatedBy: string;
  actor: Pick<AuthUser, 'user_id' | 'username'> | null;
  paymentId: number | null;
}

/** The kinds that are OpenPAYGO ADD_TIME tokens; the others (SET_TIME, DISABLE_PAYG, COUNTER_SYNC) close every older count. */
const ADDS_TIME: ReadonlySet<string> = new Set(['add_time', 'activation']);

/**
 * Where a device's tokens stand once it has taken its newer tokens: `top`,
 * the highest count issued (or the device's count, when set higher by hand),
 * and `barrier`, the highest count of a token that closes every older count
 * (null when there is none).
 */
export interface TokenHorizon {
  top: number;
  barrier: number | null;
}

/**
 * Whether a device still takes this token once it has taken the newer ones
 * (OpenPAYGO Token, as decodeToken does): an ADD_TIME token is taken above
 * the last count, or unused within the 16 counts below it; any other type
 * only above it. A SET_TIME, DISABLE_PAYG or COUNTER_SYNC token marks every
 * older count used. A token no longer taken is expired (is_valid false):
 * the dashboard counts it so and the lists show it as Expired.
 */
export function stillTaken(count: number, kind: string, h: TokenHorizon): boolean {
  if (h.barrier !== null && count < h.barrier) return false;
  if (count === h.top) return true;
  return ADDS_TIME.has(kind) && count > h.top - MAX_UNUSED_OLDER_TOKENS;
}

/** The horizon after the planned tokens, from the device's count before them. */
export function horizonAfter(tokens: readonly PlannedToken[], countBefore: number): TokenHorizon {
  const top = Math.max(countBefore, ...tokens.map((t) => t.count));
  const closing = tokens.filter((t) => !ADDS_TIME.has(t.kind)).map((t) => t.count);
  return { top, barrier: closing.length ? Math.max(...closing) : null };
}

/**
 * `UPDATE token_logs` marking expired the device's older tokens it no longer
 * takes at `h` (the SQL form of stillTaken), for a data-modifying CTE, and
 * written only when `guard` returned a row. Tokens at or below the device's
 * count before (`countBefore`) less the window are expired already (every
 * write of tokens or of the count goes through here, and migration
 * 0024_token_expiry marked the older ones), so only the few rows above it
 * are read, by the (device, count) key: a device with a thousand tokens
 * reads about eight.
 */
export function expireOlderSql(orgId: string, itemId: number, countBefore: number, h: TokenHorizon, guard: string | null): Prisma.Sql {
  const closing = h.barrier === null ? Prisma.empty : Prisma.sql`OR token_count < ${h.barrier}::int`;
  return Prisma.sql`UPDATE token_logs SET is_valid = false
    WHERE organization_id = ${orgId} AND item_id = ${itemId}::int AND is_valid
      AND token_count > ${countBefore - MAX_UNUSED_OLDER_TOKENS - 1}::int AND token_count < ${h.top}::int
      AND (token_count <= ${h.top - MAX_UNUSED_OLDER_TOKENS}::int ${closing}
           OR token_type NOT IN ('add_time'::"TokenType", 'activation'::"TokenType"))
      ${guard ? Prisma.raw(`AND EXISTS (SELECT 1 FROM ${guard})`) : Prisma.empty}`;
}

/**
 * The token log rows and their audit entries as two INSERT ... SELECT
 * statements for a data-modifying CTE, and the UPDATE expiring the older
 * tokens the new ones close (expireOlderSql), each row written only when
 * `guard` (a CTE name, e.g. the payment just inserted) returned a row, so
 * the whole write is one statement that writes nothing when the guard did
 * not.
 */
export function tokenInsertsSql(
  ctx: TokenWriteContext,
  tokens: PlannedToken[],
  guard: string | null,
): { logs: Prisma.Sql; audits: Prisma.Sql; expire: Prisma.Sql } | null {
  if (!tokens.length) return null;
  const { orgId, item } = ctx;
  const from = guard ? Prisma.raw(`FROM ${guard}`) : Prisma.empty;
  const assigned = item.is_assigned;
  // A token's count is at most 2 above the one before it.
  const countBefore = tokens[0]!.count - 2;
  const horizon = horizonAfter(tokens, countBefore);
  const logRows = tokens.map(
    (t) => Prisma.sql`SELECT ${orgId}::varchar, ${item.item_id}::int, ${item.serial_number}::varchar,
      ${assigned ? item.customer_id : null}::int, ${assigned ? item.customer_name : null}::varchar, ${ctx.paymentId}::int,
      ${t.token}::varchar, ${t.kind}::"TokenType", ${t.count}::int, ${t.value}::int, ${t.days}::numeric,
      ${t.amountPaid}::numeric, ${assigned}::boolean, ${ctx.generatedBy}::varchar, ${stillTaken(t.count, t.kind, horizon)}::boolean ${from}`,
  );
  const auditRows = tokens.map(
    (t) => Prisma.sql`SELECT ${orgId}::varchar, ${ctx.actor?.user_id ?? null}::int, ${ctx.actor?.username ?? null}::varchar,
      'token.generate'::varchar, 'item'::varchar, ${String(item.item_id)}::varchar,
      ${`${t.kind} token (count ${t.count}${t.days ? `, ${t.days} days` : ''}) for device ${item.serial_number} by ${ctx.generatedBy}`}::text,
      ${JSON.stringify({ serial_number: item.serial_number, token_type: t.kind, token_count: t.count, days: t.days, payment_id: ctx.paymentId })}::jsonb ${from}`,
  );
  return {
    logs: Prisma.sql`INSERT INTO token_logs (organization_id, item_id, serial_number, customer_id, customer_name, payment_id,
        token_value, token_type, token_count, value, days_generated, amount_paid, was_assigned, generated_by, is_valid)
      ${Prisma.join(logRows, ' UNION ALL ')}`,
    expire: expireOlderSql(orgId, item.item_id, countBefore, horizon, guard),
    audits: Prisma.sql`INSERT INTO audit_logs (organization_id, actor_user_id, actor_username, action, entity_type, entity_id, description, metadata)
      ${Prisma.join(auditRows, ' UNION ALL ')}`,
  };
}

/** The device's token columns after the planned tokens (issue() keeps them on the LockedItem). */
export const tokenColumnsSql = (item: LockedItem) => Prisma.sql`
  token_count = ${item.token_count}::int,
  credit_until = ${item.credit_until?.toISOString() ?? null}::timestamptz,
  activated_at = ${item.activated_at?.toISOString() ?? null}::timestamptz,
  paid_off_at = ${item.paid_off_at?.toISOString() ?? null}::timestamptz`;
