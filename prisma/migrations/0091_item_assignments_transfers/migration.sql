-- The transfers of an organization (0090), for the portfolio report, which follows each account to its new holders:
-- a few rows among millions of assignments, read from their own partial index rather than the whole table.
CREATE INDEX item_assignments_transfers ON item_assignments (organization_id, item_id) WHERE transferred_from_customer_id IS NOT NULL;
