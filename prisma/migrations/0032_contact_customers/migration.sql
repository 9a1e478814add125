-- A customer's collection contacts by customer: deleting a customer (its
-- contacts go with it, ON DELETE CASCADE) looked for them by reading the
-- whole table, once per customer, so removing the 100,000 customers of an
-- import from an organization with 100,000 contacts read 10^10 rows.

CREATE INDEX "collection_contacts_organization_id_customer_id_idx" ON "collection_contacts"("organization_id", "customer_id");
