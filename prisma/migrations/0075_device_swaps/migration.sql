-- Device swaps (POST /payg/items/swap): a customer's faulty device replaced by
-- one from stock, the account (what was paid, the days left, the activation or
-- payoff, the plan of the device's own) moving to the replacement. One row per
-- swap, written in the statement that swaps them; the replacement's row of
-- item_assignments names the device it continues (swapped_from_item_id), so
-- that the reports do not count a swap as a device given (README "Device swaps").
CREATE TABLE "device_swaps" (
    "swap_id" SERIAL NOT NULL,
    "organization_id" VARCHAR(64) NOT NULL,
    "customer_id" INTEGER NOT NULL,
    "old_item_id" INTEGER NOT NULL,
    "new_item_id" INTEGER NOT NULL,
    "swapped_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "swapped_by" VARCHAR(100),
    "reason" VARCHAR(200) NOT NULL,
    "total_paid" DECIMAL(14,2) NOT NULL,
    "days_moved" INTEGER NOT NULL DEFAULT 0,
    "paid_off" BOOLEAN NOT NULL DEFAULT false,
    "token_type" VARCHAR(20),
    "token_count" INTEGER,
    "lock_token_count" INTEGER,
    "old_status" "ItemStatus" NOT NULL,

    CONSTRAINT "device_swaps_pkey" PRIMARY KEY ("organization_id","swap_id"),
    CONSTRAINT "device_swaps_two_devices_check" CHECK ("old_item_id" <> "new_item_id"),
    CONSTRAINT "device_swaps_token_type_check" CHECK ("token_type" IS NULL OR "token_type" IN ('set_time', 'unlock')),
    CONSTRAINT "device_swaps_old_status_check" CHECK ("old_status" IN ('maintenance', 'retired'))
);

CREATE INDEX "device_swaps_organization_id_swapped_at_idx" ON "device_swaps"("organization_id", "swapped_at" DESC);
CREATE INDEX "device_swaps_organization_id_old_item_id_idx" ON "device_swaps"("organization_id", "old_item_id");
CREATE INDEX "device_swaps_organization_id_new_item_id_idx" ON "device_swaps"("organization_id", "new_item_id");
CREATE INDEX "device_swaps_organization_id_customer_id_idx" ON "device_swaps"("organization_id", "customer_id");

ALTER TABLE "device_swaps" ADD CONSTRAINT "device_swaps_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("organization_id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "device_swaps" ADD CONSTRAINT "device_swaps_organization_id_customer_id_fkey" FOREIGN KEY ("organization_id", "customer_id") REFERENCES "customers"("organization_id", "customer_id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "device_swaps" ADD CONSTRAINT "device_swaps_organization_id_old_item_id_fkey" FOREIGN KEY ("organization_id", "old_item_id") REFERENCES "items"("organization_id", "item_id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "device_swaps" ADD CONSTRAINT "device_swaps_organization_id_new_item_id_fkey" FOREIGN KEY ("organization_id", "new_item_id") REFERENCES "items"("organization_id", "item_id") ON DELETE RESTRICT ON UPDATE CASCADE;

ALTER TABLE "item_assignments" ADD COLUMN "swapped_from_item_id" INTEGER;
