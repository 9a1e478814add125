-- Product warranties (GET/PUT /payg/settings/warranties): how many months each
-- product is under warranty, from the day its account began (README
-- "Warranties"). A product is matched by its name whatever the case, so each
-- name is there once in that sense.
CREATE TABLE "product_warranties" (
    "organization_id" VARCHAR(64) NOT NULL,
    "product_name" VARCHAR(200) NOT NULL,
    "months" INTEGER NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_by" VARCHAR(100),

    CONSTRAINT "product_warranties_pkey" PRIMARY KEY ("organization_id","product_name"),
    CONSTRAINT "product_warranties_months_check" CHECK ("months" BETWEEN 1 AND 120),
    CONSTRAINT "product_warranties_product_name_check" CHECK (btrim("product_name") <> '' AND "product_name" = btrim("product_name"))
);

CREATE UNIQUE INDEX "product_warranties_organization_id_lower_product_name_key" ON "product_warranties"("organization_id", lower("product_name"));

ALTER TABLE "product_warranties" ADD CONSTRAINT "product_warranties_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("organization_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The old device's warranty as it stood on the day of a swap: whether the maker owes the repair (the Device Swap report).
ALTER TABLE "device_swaps" ADD COLUMN "warranty_until" TIMESTAMPTZ(3);
