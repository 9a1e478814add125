-- What kinds each customer has, read from the index alone: the Documents
-- report groups them per customer without reading the rows.
-- CreateIndex
CREATE INDEX "customer_documents_organization_id_customer_id_kind_idx" ON "customer_documents"("organization_id", "customer_id", "kind");
