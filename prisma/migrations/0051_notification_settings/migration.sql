-- What each user is not told of in their own notifications
-- (PUT /payg/me/notification-settings): every kind is on until turned off.
-- Nullable as Prisma lists are; the writers read a null as nothing turned off.
ALTER TABLE "users" ADD COLUMN "muted_notification_kinds" "UserNotificationKind"[] DEFAULT ARRAY[]::"UserNotificationKind"[];
