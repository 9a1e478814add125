-- What Prisma's schema language cannot express; written by hand.

-- Partial-match search (ILIKE '%term%') on the list screens uses trigram
-- indexes; without them every search scans the whole organization.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE INDEX "customers_customer_name_trgm" ON "customers" USING gin ("customer_name" gin_trgm_ops);
CREATE INDEX "customers_phone_contact_trgm" ON "customers" USING gin ("phone_contact" gin_trgm_ops);
CREATE INDEX "customers_id_number_trgm" ON "customers" USING gin ("id_number" gin_trgm_ops);
CREATE INDEX "customers_email_trgm" ON "customers" USING gin ("email" gin_trgm_ops);
CREATE INDEX "customers_county_trgm" ON "customers" USING gin ("county" gin_trgm_ops);
CREATE INDEX "customers_constituency_trgm" ON "customers" USING gin ("constituency" gin_trgm_ops);
CREATE INDEX "customers_occupation_trgm" ON "customers" USING gin ("occupation" gin_trgm_ops);

CREATE INDEX "items_serial_number_trgm" ON "items" USING gin ("serial_number" gin_trgm_ops);
CREATE INDEX "items_product_name_trgm" ON "items" USING gin ("product_name" gin_trgm_ops);
CREATE INDEX "items_manufacturer_trgm" ON "items" USING gin ("manufacturer" gin_trgm_ops);

CREATE INDEX "payment_templates_template_name_trgm" ON "payment_templates" USING gin ("template_name" gin_trgm_ops);

-- A customer has at most one active payment plan; ended assignments stay as history.
CREATE UNIQUE INDEX "template_assignments_one_active" ON "template_assignments" ("organization_id", "customer_id") WHERE "is_active";

-- Invoice numbers (INV-000001) come from a sequence so a number is never reused,
-- even after a delete or a rolled-back transaction.
CREATE SEQUENCE IF NOT EXISTS "invoice_number_seq" START 1;
