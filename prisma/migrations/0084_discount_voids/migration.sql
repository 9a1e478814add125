-- A discount given by mistake is voided (POST /payg/items/discounts/{id}/void):
-- what it took off comes back on the device's account, and the row stays, with
-- who voided it, when and why.
ALTER TABLE "device_discounts" ADD COLUMN "voided_at" TIMESTAMPTZ(3);
ALTER TABLE "device_discounts" ADD COLUMN "voided_by" VARCHAR(100);
ALTER TABLE "device_discounts" ADD COLUMN "void_reason" VARCHAR(200);
