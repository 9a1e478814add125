-- CreateIndex
CREATE INDEX "token_logs_organization_id_customer_id_idx" ON "token_logs"("organization_id", "customer_id");

