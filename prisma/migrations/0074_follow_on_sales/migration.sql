-- The follow-on sales rule: whether a customer may be given another device on
-- credit, by their repayment standing, and whether one a device was
-- repossessed from may be given any (README "Follow-on sales").
ALTER TABLE "organizations"
  ADD COLUMN "follow_on_rule" VARCHAR(10) NOT NULL DEFAULT 'any',
  ADD COLUMN "follow_on_refuse_repossessed" BOOLEAN NOT NULL DEFAULT false,
  ADD CONSTRAINT "organizations_follow_on_rule_check" CHECK ("follow_on_rule" IN ('any', 'behind', 'on_track'));
