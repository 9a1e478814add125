-- A user may also be emailed their notifications, in a digest; email waits in mail_outbox until it is sent.
-- AlterTable
ALTER TABLE "users" ADD COLUMN     "emailed_notification_kinds" "UserNotificationKind"[] DEFAULT ARRAY[]::"UserNotificationKind"[],
ADD COLUMN     "notifications_emailed_through" INTEGER;

-- CreateTable
CREATE TABLE "mail_outbox" (
    "id" SERIAL NOT NULL,
    "user_id" INTEGER,
    "to_address" VARCHAR(254) NOT NULL,
    "subject" VARCHAR(300) NOT NULL,
    "body" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "next_attempt_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "sent_at" TIMESTAMPTZ(3),
    "failed_at" TIMESTAMPTZ(3),
    "last_error" VARCHAR(500),

    CONSTRAINT "mail_outbox_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "mail_outbox_user_id_idx" ON "mail_outbox"("user_id");

-- AddForeignKey
ALTER TABLE "mail_outbox" ADD CONSTRAINT "mail_outbox_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("user_id") ON DELETE CASCADE ON UPDATE CASCADE;


-- The mail worker's look-up: only the mail still to send (a handful, of every organization).
CREATE INDEX "mail_outbox_due" ON "mail_outbox" ("next_attempt_at") WHERE "sent_at" IS NULL AND "failed_at" IS NULL;

-- The digest's look-up: only the users who chose to be emailed some kind of their notifications.
CREATE INDEX "users_emailing_notifications" ON "users" ("user_id") WHERE cardinality("emailed_notification_kinds") > 0;
