-- Devices taken back from customers who stopped paying (POST /payg/items/repossess),
-- with what they had paid on them and what was left to pay, written off: the
-- Repossession report. Written in the statement that repossesses the device.
CREATE TABLE "repossessions" (
    "repossession_id" SERIAL NOT NULL,
    "organization_id" VARCHAR(64) NOT NULL,
    "item_id" INTEGER NOT NULL,
    "customer_id" INTEGER NOT NULL,
    "repossessed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "repossessed_by" VARCHAR(100),
    "reason" VARCHAR(200) NOT NULL,
    "total_paid" DECIMAL(14,2) NOT NULL,
    "written_off" DECIMAL(14,2),
    "currency" VARCHAR(3) NOT NULL DEFAULT 'KES',
    "lock_token_count" INTEGER,
    "status" "ItemStatus" NOT NULL,

    CONSTRAINT "repossessions_pkey" PRIMARY KEY ("organization_id","repossession_id")
);

CREATE INDEX "repossessions_organization_id_repossessed_at_idx" ON "repossessions"("organization_id", "repossessed_at" DESC);
CREATE INDEX "repossessions_organization_id_item_id_idx" ON "repossessions"("organization_id", "item_id");
CREATE INDEX "repossessions_organization_id_customer_id_idx" ON "repossessions"("organization_id", "customer_id");

ALTER TABLE "repossessions" ADD CONSTRAINT "repossessions_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("organization_id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "repossessions" ADD CONSTRAINT "repossessions_organization_id_item_id_fkey" FOREIGN KEY ("organization_id", "item_id") REFERENCES "items"("organization_id", "item_id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "repossessions" ADD CONSTRAINT "repossessions_organization_id_customer_id_fkey" FOREIGN KEY ("organization_id", "customer_id") REFERENCES "customers"("organization_id", "customer_id") ON DELETE RESTRICT ON UPDATE CASCADE;
