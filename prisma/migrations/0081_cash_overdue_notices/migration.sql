-- Cash held too long (README "Cash in hand"): a collector whose oldest cash not handed over was paid more than 3 days
-- ago is told so, and so are the owners and admins who record handovers. `collector` is who holds the cash (a
-- username, as on the payments and handovers) and `payment_id` the oldest payment still held: each user is told
-- once of that payment, whichever process sweeps first. The other kinds have no collector, so the key passes them over.
ALTER TYPE "UserNotificationKind" ADD VALUE 'cash_overdue';
ALTER TABLE "user_notifications" ADD COLUMN "collector" VARCHAR(100);
CREATE UNIQUE INDEX "user_notifications_cash_overdue_key" ON "user_notifications"("user_id", "collector", "payment_id");
