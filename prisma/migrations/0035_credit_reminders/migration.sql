-- Payment reminders: an SMS to the customer a chosen number of business days
-- before a device's credit runs out, at or after a chosen hour of the
-- business day. Off until an owner or admin turns them on.
ALTER TABLE "organizations"
  ADD COLUMN "reminders_enabled" BOOLEAN NOT NULL DEFAULT false,
  ADD COLUMN "reminder_days_before" INTEGER NOT NULL DEFAULT 1,
  ADD COLUMN "reminder_hour" INTEGER NOT NULL DEFAULT 9,
  ADD CONSTRAINT "organizations_reminder_days_before_check" CHECK ("reminder_days_before" BETWEEN 0 AND 7),
  ADD CONSTRAINT "organizations_reminder_hour_check" CHECK ("reminder_hour" BETWEEN 0 AND 23);

-- One row per reminder made: a device is reminded once for each business
-- day its credit runs out on (ends_on). The primary key is what makes it
-- once, whichever API process sweeps first; a payment that moves the credit
-- to another day opens a new one.
CREATE TABLE "credit_reminders" (
    "organization_id" VARCHAR(64) NOT NULL,
    "item_id" INTEGER NOT NULL,
    "ends_on" DATE NOT NULL,
    "credit_until" TIMESTAMPTZ(3) NOT NULL,
    "customer_id" INTEGER NOT NULL,
    "message_id" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "credit_reminders_pkey" PRIMARY KEY ("organization_id","item_id","ends_on")
);

ALTER TABLE "credit_reminders" ADD CONSTRAINT "credit_reminders_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("organization_id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "credit_reminders" ADD CONSTRAINT "credit_reminders_organization_id_item_id_fkey" FOREIGN KEY ("organization_id", "item_id") REFERENCES "items"("organization_id", "item_id") ON DELETE CASCADE ON UPDATE CASCADE;
