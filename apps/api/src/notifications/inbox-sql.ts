import type { UserNotificationKind } from '@kidogo/contracts';
import { Prisma } from '../generated/prisma/client.js';

/** One of a user's own notifications, to be written in the transaction of the change it tells of. */
export interface UserNotice {
  orgId: string;
  userId: number;
  kind: UserNotificationKind;
  message: string;
  ticketId: number | null;
  /** The device it is about. */
  itemId: number | null;
  /** Who did it; null: nobody at a screen (a customer answering M-Pesa). */
  actor: string | null;
}

/**
 * The INSERT of a user's notification, for the statement list of the change it
 * tells of: it exists if and only if the change commits, like the change's
 * Activity Log entry and webhook event. The user must be of the organization,
 * and is not told of a kind they turned off.
 */
export function userNotificationSql(n: UserNotice): Prisma.Sql {
  return Prisma.sql`INSERT INTO user_notifications (organization_id, user_id, kind, message, ticket_id, item_id, actor_username)
    SELECT ${n.orgId}, u.user_id, ${n.kind}::"UserNotificationKind", ${n.message.slice(0, 300)}, ${n.ticketId}::int, ${n.itemId}::int, ${n.actor}
    FROM users u WHERE u.user_id = ${n.userId}::int AND u.organization_id = ${n.orgId}
      AND NOT (${n.kind}::"UserNotificationKind" = ANY(coalesce(u.muted_notification_kinds, ARRAY[]::"UserNotificationKind"[])))`;
}

/**
 * The INSERT of a notification for each active owner and admin of the organization who did not turn its kind off
 * (the organization's work waiting for someone: a problem a customer reported), in the transaction of the change.
 */
export function managersNotificationSql(n: Omit<UserNotice, 'userId'>): Prisma.Sql {
  return Prisma.sql`INSERT INTO user_notifications (organization_id, user_id, kind, message, ticket_id, item_id, actor_username)
    SELECT ${n.orgId}, u.user_id, ${n.kind}::"UserNotificationKind", ${n.message.slice(0, 300)}, ${n.ticketId}::int, ${n.itemId}::int, ${n.actor}
    FROM users u WHERE u.organization_id = ${n.orgId} AND u.is_active AND u.role IN ('owner', 'admin')
      AND NOT (${n.kind}::"UserNotificationKind" = ANY(coalesce(u.muted_notification_kinds, ARRAY[]::"UserNotificationKind"[])))`;
}
