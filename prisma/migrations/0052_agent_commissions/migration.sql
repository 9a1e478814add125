-- Agent commissions: what the organization pays its sales agents, reckoned in
-- the Agent report: an amount per device given to one of the agent's
-- customers, and a percentage of the successful payments of the agent's
-- customers. Both 0 (no commission) until an owner or admin sets them.
ALTER TABLE "organizations"
  ADD COLUMN "commission_per_device" DECIMAL(20,2) NOT NULL DEFAULT 0,
  ADD COLUMN "commission_percent" DECIMAL(5,2) NOT NULL DEFAULT 0,
  ADD CONSTRAINT "organizations_commission_per_device_check" CHECK ("commission_per_device" >= 0),
  ADD CONSTRAINT "organizations_commission_percent_check" CHECK ("commission_percent" BETWEEN 0 AND 100);
