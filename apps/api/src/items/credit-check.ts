import {
  FOLLOW_ON_RULES,
  followOnAllowedText,
  followOnAllows,
  REPAYMENT_STANDING_LABELS,
  type CreditCheck,
  type FollowOnRule,
} from '@kidogo/contracts';
import { Prisma } from '../generated/prisma/client.js';
import type { Run } from '../database/database.service.js';
import { customerBalances, toRepayment } from '../customers/balances.js';

interface CreditRow {
  customer_id: number;
  customer_name: string;
  rule: string;
  refuse_repossessed: boolean;
  devices: number;
  expected: Prisma.Decimal | null;
  paid_towards: Prisma.Decimal | null;
  repayment_paid_off: boolean;
  repossessions: number;
}

/** The stored rule (checked by the database); `any` for anything else. */
export const asRule = (r: string): FollowOnRule => ((FOLLOW_ON_RULES as readonly string[]).includes(r) ? (r as FollowOnRule) : 'any');

/** "1,500.00" */
const amount = (m: string) => Number(m).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/**
 * Whether the customer may be given another device under their organization's
 * follow-on sales rule (credit-check.ts in the contracts), in one statement:
 * the customer, the rule, their repayment over the devices they hold now (the
 * same sums as payment details) and the devices ever repossessed from them.
 * `run` is the pool's or the assigning transaction's. Null for a customer not
 * in the organization.
 */
export async function readCreditCheck(run: Run, orgId: string, customerId: number): Promise<CreditCheck | null> {
  const [row] = await run<CreditRow>(Prisma.sql`
    SELECT c.customer_id, c.customer_name, o.follow_on_rule AS rule, o.follow_on_refuse_repossessed AS refuse_repossessed,
           coalesce(b.devices, 0)::int AS devices, b.expected, b.paid_towards, coalesce(b.repayment_paid_off, false) AS repayment_paid_off,
           (SELECT count(*)::int FROM repossessions r WHERE r.organization_id = c.organization_id AND r.customer_id = c.customer_id) AS repossessions
    FROM customers c
    JOIN organizations o ON o.organization_id = c.organization_id
    LEFT JOIN LATERAL ${customerBalances(orgId, Prisma.sql`c.customer_id`)} b ON true
    WHERE c.organization_id = ${orgId} AND c.customer_id = ${customerId}::int`);
  if (!row) return null;
  const rule = asRule(row.rule);
  const repayment = toRepayment(row.expected, row.paid_towards, row.repayment_paid_off);
  const reasons: string[] = [];
  if (!followOnAllows(rule, repayment.standing) && repayment.standing !== null) {
    reasons.push(
      `${row.customer_name} is ${REPAYMENT_STANDING_LABELS[repayment.standing]}: paid ${amount(repayment.paid_towards!)} of the ` +
        `${amount(repayment.expected_by_today!)} their plans expect by today (${repayment.repaid_share ?? 0}%). This organization ` +
        `gives another device only to customers ${followOnAllowedText(rule)}.`,
    );
  }
  if (row.refuse_repossessed && row.repossessions > 0) {
    reasons.push(
      `${row.customer_name} had ${row.repossessions === 1 ? 'a device' : `${row.repossessions} devices`} repossessed. ` +
        'This organization gives no more devices to customers it repossessed from.',
    );
  }
  return {
    customer_id: row.customer_id,
    customer_name: row.customer_name,
    devices: row.devices,
    repayment,
    repossessions: row.repossessions,
    rule,
    refuse_repossessed: row.refuse_repossessed,
    allowed: reasons.length === 0,
    reasons,
  };
}

/** What the refusal of an assignment says: the reasons, and how to give the device anyway. */
export function refusalDetail(check: CreditCheck): string {
  return `customer_id: ${check.reasons.join(' ')} An owner or admin can give it anyway with a reason (override_reason).`;
}
