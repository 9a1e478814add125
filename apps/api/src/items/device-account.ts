import type { AuditEntry } from '../audit/audit.service.js';
import type { AuthUser } from '../common/tenancy.js';
import type { Prisma } from '../generated/prisma/client.js';

/**
 * A device's account: what its holder paid on it and what that bought. It
 * belongs to one customer, like a PAYG operator's account for a repossessed
 * device that goes to someone else: the next customer starts from nothing
 * and pays their own plan's deposit and activation. The OpenPAYGO count and
 * secret are not part of it: they are the physical device's, which refuses
 * a token whose count is not above the last one it took.
 */
export interface DeviceAccount {
  total_paid: Prisma.Decimal;
  credit: Prisma.Decimal;
  activated_at: Date | null;
  paid_off_at: Date | null;
  credit_until: Date | null;
}

export const FRESH_ACCOUNT = {
  total_paid: 0,
  free_days: 0,
  discount: 0,
  credit: 0,
  activated_at: null,
  paid_off_at: null,
  credit_until: null,
} satisfies Prisma.ItemUpdateInput;

const isEmpty = (a: DeviceAccount) =>
  a.total_paid.isZero() && a.credit.isZero() && a.activated_at === null && a.paid_off_at === null && a.credit_until === null;

/**
 * The audit entry for the account the device leaves behind, or null when it
 * held nothing: the device row no longer shows these figures, and the
 * payments only say who paid what, not what the device carried.
 */
export function accountClosedEntry(
  orgId: string,
  actor: AuthUser,
  device: DeviceAccount & { serial_number: string; token_count: number },
  holderId: number | null,
  customer: { id: number; customer_name: string },
): AuditEntry | null {
  if (isEmpty(device)) return null;
  return {
    organizationId: orgId,
    actor,
    action: 'item.account_reset',
    entityType: 'item',
    entityId: device.serial_number,
    description:
      `Device ${device.serial_number} starts a new account for ${customer.customer_name}: the previous one ` +
      `(total paid ${device.total_paid.toFixed(2)}, credit ${device.credit.toFixed(2)}) stays with its payments; token count ${device.token_count} kept`,
    metadata: {
      customer_id: customer.id,
      previous_customer_id: holderId,
      total_paid: device.total_paid.toFixed(2),
      credit: device.credit.toFixed(2),
      activated_at: device.activated_at?.toISOString() ?? null,
      paid_off_at: device.paid_off_at?.toISOString() ?? null,
      credit_until: device.credit_until?.toISOString() ?? null,
      token_count: device.token_count,
    },
  };
}
