-- Per-device payment plans. An assignment with item_id is that device's own
-- plan and wins over its customer's plan (an assignment without item_id),
-- which covers the customer's other devices: a customer can pay for a solar
-- home system on one plan and a phone on another.
ALTER TABLE "template_assignments" ADD COLUMN "item_id" INTEGER;

ALTER TABLE "template_assignments" ADD CONSTRAINT "template_assignments_organization_id_item_id_fkey" FOREIGN KEY ("organization_id", "item_id") REFERENCES "items"("organization_id", "item_id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE INDEX "template_assignments_organization_id_item_id_idx" ON "template_assignments"("organization_id", "item_id");

-- At most one active plan per customer for all their devices, and at most
-- one active plan of a device's own.
DROP INDEX "template_assignments_one_active";
CREATE UNIQUE INDEX "template_assignments_one_active" ON "template_assignments" ("organization_id", "customer_id") WHERE "is_active" AND "item_id" IS NULL;
CREATE UNIQUE INDEX "template_assignments_device_one_active" ON "template_assignments" ("organization_id", "item_id") WHERE "is_active" AND "item_id" IS NOT NULL;

-- The planner's statistics for the new column, so that the joins of a
-- device's own plan (devicePlanJoin) are costed as the few rows they are
-- from the first statement, not as the whole table.
ANALYZE "template_assignments";
