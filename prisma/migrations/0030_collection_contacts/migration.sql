-- Calls and visits about devices out of credit (Collections), with promises to pay.

CREATE TYPE "ContactOutcome" AS ENUM ('promised_to_pay', 'reached', 'no_answer', 'wrong_number', 'refused', 'device_problem', 'other');

CREATE TABLE "collection_contacts" (
    "contact_id" SERIAL NOT NULL,
    "organization_id" VARCHAR(64) NOT NULL,
    "item_id" INTEGER NOT NULL,
    "customer_id" INTEGER NOT NULL,
    "user_id" INTEGER,
    "outcome" "ContactOutcome" NOT NULL,
    "note" VARCHAR(500),
    "promised_on" DATE,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "collection_contacts_pkey" PRIMARY KEY ("organization_id","contact_id")
);

CREATE INDEX "collection_contacts_organization_id_item_id_created_at_idx" ON "collection_contacts"("organization_id", "item_id", "created_at" DESC);

ALTER TABLE "collection_contacts" ADD CONSTRAINT "collection_contacts_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("organization_id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "collection_contacts" ADD CONSTRAINT "collection_contacts_organization_id_item_id_fkey" FOREIGN KEY ("organization_id", "item_id") REFERENCES "items"("organization_id", "item_id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "collection_contacts" ADD CONSTRAINT "collection_contacts_organization_id_customer_id_fkey" FOREIGN KEY ("organization_id", "customer_id") REFERENCES "customers"("organization_id", "customer_id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "collection_contacts" ADD CONSTRAINT "collection_contacts_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("user_id") ON DELETE SET NULL ON UPDATE CASCADE;
