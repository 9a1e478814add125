-- Discounts off what is left to pay on a device (POST /payg/items/discount):
-- the price of paying off early, goodwill after a long fault, a price
-- corrected. items.discount is the total off the device's payoff price on
-- its present account (0 again when the device starts an account for another
-- customer, like total_paid); each discount is a row here, with who gave it,
-- why, and what was left to pay before and after.
ALTER TABLE "items" ADD COLUMN "discount" DECIMAL(14,2) NOT NULL DEFAULT 0;

CREATE TABLE "device_discounts" (
    "discount_id" SERIAL NOT NULL,
    "organization_id" VARCHAR(64) NOT NULL,
    "item_id" INTEGER NOT NULL,
    "customer_id" INTEGER NOT NULL,
    "amount" DECIMAL(14,2) NOT NULL,
    "currency" VARCHAR(3) NOT NULL DEFAULT 'KES',
    "reason" VARCHAR(200) NOT NULL,
    "remaining_before" DECIMAL(14,2) NOT NULL,
    "remaining_after" DECIMAL(14,2) NOT NULL,
    "unlock_token_count" INTEGER,
    "given_by" VARCHAR(100),
    "given_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "device_discounts_pkey" PRIMARY KEY ("organization_id","discount_id")
);

CREATE INDEX "device_discounts_organization_id_item_id_given_at_idx" ON "device_discounts"("organization_id", "item_id", "given_at" DESC);
CREATE INDEX "device_discounts_organization_id_customer_id_idx" ON "device_discounts"("organization_id", "customer_id");
CREATE INDEX "device_discounts_organization_id_given_at_idx" ON "device_discounts"("organization_id", "given_at" DESC);

ALTER TABLE "device_discounts" ADD CONSTRAINT "device_discounts_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("organization_id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "device_discounts" ADD CONSTRAINT "device_discounts_organization_id_item_id_fkey" FOREIGN KEY ("organization_id", "item_id") REFERENCES "items"("organization_id", "item_id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "device_discounts" ADD CONSTRAINT "device_discounts_organization_id_customer_id_fkey" FOREIGN KEY ("organization_id", "customer_id") REFERENCES "customers"("organization_id", "customer_id") ON DELETE RESTRICT ON UPDATE CASCADE;
