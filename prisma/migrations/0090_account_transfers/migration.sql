-- An account passed to another customer (POST /items/transfer, README
-- "Account transfers"): the customer who had the device died, moved away or
-- sold it on, and someone else takes over the payments. The device keeps its
-- account (what was paid, the days bought, an activation or a payoff, the day
-- it began, its plan) and the new holder's assignment row says whose account it
-- continues, what had been paid on it by then and why. It is no sale: the Agent
-- report, the commissions, the Documents report and the portfolio leave the row
-- out, as they leave out a device swap's replacement; the portfolio follows the
-- account to its new holder. NULL for every other row (no rewrite of the table).
-- The previous holder needs no foreign key of its own: their own row of the
-- device (customer_id) already keeps them from being deleted.
ALTER TABLE item_assignments
  ADD COLUMN transferred_from_customer_id integer,
  ADD COLUMN transferred_paid numeric(14, 2),
  ADD COLUMN transfer_reason varchar(200);

ALTER TABLE item_assignments
  ADD CONSTRAINT item_assignments_transfer_check
  CHECK ((transferred_from_customer_id IS NULL) = (transferred_paid IS NULL)
     AND (transferred_from_customer_id IS NULL) = (transfer_reason IS NULL)
     AND (transferred_paid IS NULL OR transferred_paid >= 0));
