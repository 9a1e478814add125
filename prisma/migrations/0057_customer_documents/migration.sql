-- A customer's documents (ID card front and back, photos, the signed agreement),
-- the file itself kept in the row: every API process serves it, a backup holds
-- it, and it goes with the customer (and with an erasure of their personal data).
-- CreateEnum
CREATE TYPE "DocumentKind" AS ENUM ('id_front', 'id_back', 'photo', 'installation', 'agreement', 'other');

-- CreateTable
CREATE TABLE "customer_documents" (
    "document_id" SERIAL NOT NULL,
    "organization_id" VARCHAR(64) NOT NULL,
    "customer_id" INTEGER NOT NULL,
    "kind" "DocumentKind" NOT NULL,
    "file_name" VARCHAR(200) NOT NULL,
    "content_type" VARCHAR(40) NOT NULL,
    "size_bytes" INTEGER NOT NULL,
    "sha256" CHAR(64) NOT NULL,
    "content" BYTEA NOT NULL,
    "note" VARCHAR(200),
    "uploaded_by" VARCHAR(100),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "customer_documents_pkey" PRIMARY KEY ("organization_id","document_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "customer_documents_organization_id_customer_id_sha256_key" ON "customer_documents"("organization_id", "customer_id", "sha256");

-- AddForeignKey
ALTER TABLE "customer_documents" ADD CONSTRAINT "customer_documents_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("organization_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "customer_documents" ADD CONSTRAINT "customer_documents_organization_id_customer_id_fkey" FOREIGN KEY ("organization_id", "customer_id") REFERENCES "customers"("organization_id", "customer_id") ON DELETE CASCADE ON UPDATE CASCADE;

