-- CreateIndex
CREATE INDEX "token_logs_organization_id_payment_id_idx" ON "token_logs"("organization_id", "payment_id");

-- CreateIndex
CREATE INDEX "messages_organization_id_payment_id_idx" ON "messages"("organization_id", "payment_id");

