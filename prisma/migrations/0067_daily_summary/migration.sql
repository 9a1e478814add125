-- Owners and admins may be emailed a summary of the day before, each morning.
-- AlterTable
ALTER TABLE "users" ADD COLUMN     "daily_summary_email" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "daily_summary_sent_on" DATE;


-- The morning's look-up: only the few users who asked for the summary.
CREATE INDEX "users_daily_summary" ON "users" ("user_id") WHERE "daily_summary_email";
