-- A user's own notifications (GET /payg/me/notifications): a ticket given to
-- them, a ticket they opened resolved, a ticket of theirs opened again or noted, a
-- promise to pay they logged due today or not kept, payments held for an owner
-- or admin to match. The header bell's "For you", with its unread count.
CREATE TYPE "UserNotificationKind" AS ENUM ('ticket_assigned', 'ticket_resolved', 'ticket_reopened', 'ticket_noted', 'promise_due', 'promise_broken', 'payments_held');

CREATE TABLE "user_notifications" (
    "id" SERIAL NOT NULL,
    "organization_id" VARCHAR(64) NOT NULL,
    "user_id" INTEGER NOT NULL,
    "kind" "UserNotificationKind" NOT NULL,
    "message" VARCHAR(300) NOT NULL,
    "ticket_id" INTEGER,
    -- The device it concerns (its page is where the bell leads for a promise), and the promise it tells of.
    "item_id" INTEGER,
    "contact_id" INTEGER,
    -- payments_held: the newest held payment it tells of, so the next tells only of those held after it (a mark, not a reference).
    "payment_id" INTEGER,
    "actor_username" VARCHAR(100),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "read_at" TIMESTAMPTZ(3),

    CONSTRAINT "user_notifications_pkey" PRIMARY KEY ("id")
);

-- The bell: a user's newest first, and older pages by id.
CREATE INDEX "user_notifications_user_id_id_idx" ON "user_notifications"("user_id", "id" DESC);
-- The bell's count on every page of the app, polled each minute: only the unread are indexed.
CREATE INDEX "user_notifications_unread" ON "user_notifications"("user_id", "id") WHERE "read_at" IS NULL;
-- A user's last payments_held mark.
CREATE INDEX "user_notifications_held_mark" ON "user_notifications"("user_id", "payment_id") WHERE "kind" = 'payments_held';
-- What a ticket's or a device's deletion takes along.
CREATE INDEX "user_notifications_organization_id_ticket_id_idx" ON "user_notifications"("organization_id", "ticket_id");
CREATE INDEX "user_notifications_organization_id_item_id_idx" ON "user_notifications"("organization_id", "item_id");
-- Each promise is told of once of each kind, whichever process sweeps first (and what its deletion takes along);
-- notifications of no promise (contact_id null) are never equal here.
CREATE UNIQUE INDEX "user_notifications_organization_id_contact_id_kind_key" ON "user_notifications"("organization_id", "contact_id", "kind");

ALTER TABLE "user_notifications" ADD CONSTRAINT "user_notifications_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("organization_id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "user_notifications" ADD CONSTRAINT "user_notifications_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("user_id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "user_notifications" ADD CONSTRAINT "user_notifications_organization_id_ticket_id_fkey" FOREIGN KEY ("organization_id", "ticket_id") REFERENCES "service_tickets"("organization_id", "ticket_id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "user_notifications" ADD CONSTRAINT "user_notifications_organization_id_item_id_fkey" FOREIGN KEY ("organization_id", "item_id") REFERENCES "items"("organization_id", "item_id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "user_notifications" ADD CONSTRAINT "user_notifications_organization_id_contact_id_fkey" FOREIGN KEY ("organization_id", "contact_id") REFERENCES "collection_contacts"("organization_id", "contact_id") ON DELETE CASCADE ON UPDATE CASCADE;
