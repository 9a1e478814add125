-- What Prisma's schema language cannot express; written by hand.

-- Dashboard usage: how many assigned devices have credit running (credit_until
-- in the future) and how many ran out, as two range counts on this partial
-- index instead of reading every device of the organization.
CREATE INDEX "items_credit_until_part" ON "items" ("organization_id", "credit_until") WHERE "is_assigned";
