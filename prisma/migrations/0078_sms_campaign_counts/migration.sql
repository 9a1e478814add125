-- A bulk SMS's delivery counts once every text of it has gone (sent or
-- failed): they cannot change any more, so the list reads them from here
-- rather than counting tens of thousands of messages per campaign on every
-- page (README "Bulk SMS"). Null while texts are still queued.
ALTER TABLE "sms_campaigns" ADD COLUMN "sent_count" INTEGER;
ALTER TABLE "sms_campaigns" ADD COLUMN "failed_count" INTEGER;
ALTER TABLE "sms_campaigns" ADD COLUMN "settled_at" TIMESTAMPTZ(3);
