-- Accounts brought over from another system (POST /items/accounts/import,
-- README "Bringing accounts over"): the assignment that opened such an
-- account keeps what its customer had paid before it came and when it was
-- imported. Its assigned_at is the day the account began there. Such an
-- assignment is no sale made in Kidogo: the Agent report, the commissions,
-- the Documents report and the portfolio leave it out, as they leave out a
-- device swap's replacement. Both columns are NULL for every other row (no
-- rewrite of the table: a NULL default).
ALTER TABLE item_assignments
  ADD COLUMN brought_over_paid numeric(14, 2),
  ADD COLUMN brought_over_at timestamptz(3);

ALTER TABLE item_assignments
  ADD CONSTRAINT item_assignments_brought_over_check
  CHECK ((brought_over_paid IS NULL) = (brought_over_at IS NULL) AND (brought_over_paid IS NULL OR brought_over_paid >= 0));
