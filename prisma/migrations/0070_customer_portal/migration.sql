-- CreateTable
CREATE TABLE "customer_portal_links" (
    "organization_id" VARCHAR(64) NOT NULL,
    "customer_id" INTEGER NOT NULL,
    "token_hash" CHAR(64) NOT NULL,
    "created_by" VARCHAR(100) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "last_viewed_at" TIMESTAMPTZ(3),
    "views" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "customer_portal_links_pkey" PRIMARY KEY ("organization_id","customer_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "customer_portal_links_token_hash_key" ON "customer_portal_links"("token_hash");

-- AddForeignKey
ALTER TABLE "customer_portal_links" ADD CONSTRAINT "customer_portal_links_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("organization_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "customer_portal_links" ADD CONSTRAINT "customer_portal_links_organization_id_customer_id_fkey" FOREIGN KEY ("organization_id", "customer_id") REFERENCES "customers"("organization_id", "customer_id") ON DELETE CASCADE ON UPDATE CASCADE;

