-- Bulk SMS (POST /payg/sms-campaigns): one text to a group of an
-- organization's customers, now or at a time set ahead (README "Bulk SMS").
-- One row per campaign with what was counted when it was made; its texts are
-- ordinary queued messages naming it (messages.campaign_id), sent by the
-- outbox when their next_attempt_at (the campaign's send_at) comes.
CREATE TABLE "sms_campaigns" (
    "campaign_id" SERIAL NOT NULL,
    "organization_id" VARCHAR(64) NOT NULL,
    "text" TEXT NOT NULL,
    "audience" JSONB NOT NULL,
    "audience_text" VARCHAR(500) NOT NULL,
    "send_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "created_by" VARCHAR(100) NOT NULL,
    "recipients" INTEGER NOT NULL,
    "parts" INTEGER NOT NULL,
    "skipped_no_phone" INTEGER NOT NULL DEFAULT 0,
    "skipped_opted_out" INTEGER NOT NULL DEFAULT 0,
    "skipped_same_phone" INTEGER NOT NULL DEFAULT 0,
    "cancelled_at" TIMESTAMPTZ(3),
    "cancelled_by" VARCHAR(100),
    "cancelled_count" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "sms_campaigns_pkey" PRIMARY KEY ("organization_id","campaign_id"),
    CONSTRAINT "sms_campaigns_counts_check" CHECK ("recipients" > 0 AND "parts" >= "recipients" AND "skipped_no_phone" >= 0
      AND "skipped_opted_out" >= 0 AND "skipped_same_phone" >= 0 AND "cancelled_count" BETWEEN 0 AND "recipients")
);

CREATE INDEX "sms_campaigns_organization_id_created_at_idx" ON "sms_campaigns"("organization_id", "created_at" DESC);

ALTER TABLE "sms_campaigns" ADD CONSTRAINT "sms_campaigns_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("organization_id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- The campaign a queued text belongs to. No foreign key: one would need an
-- index over every message (millions, nearly all without a campaign) to keep
-- deletes cheap; campaigns are never deleted but with their organization,
-- whose messages go first.
ALTER TABLE "messages" ADD COLUMN "campaign_id" INTEGER;

-- A campaign's texts by what became of them: its delivery counts read from this index alone.
CREATE INDEX "messages_by_campaign" ON "messages"("organization_id", "campaign_id", "delivery_status") WHERE "campaign_id" IS NOT NULL;
