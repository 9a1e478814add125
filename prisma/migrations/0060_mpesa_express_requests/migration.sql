-- M-Pesa Express (STK push) requests: a device's customer asked to pay from the back office, each with the
-- secret callback path Safaricom posts its result to.
-- CreateTable
CREATE TABLE "payment_requests" (
    "request_id" SERIAL NOT NULL,
    "organization_id" VARCHAR(64) NOT NULL,
    "item_id" INTEGER NOT NULL,
    "customer_id" INTEGER,
    "phone_number" VARCHAR(20) NOT NULL,
    "amount" DECIMAL(14,2) NOT NULL,
    "status" VARCHAR(20) NOT NULL DEFAULT 'pending',
    "callback_token" VARCHAR(64) NOT NULL,
    "merchant_request_id" VARCHAR(100),
    "checkout_request_id" VARCHAR(100),
    "result_code" INTEGER,
    "result_desc" VARCHAR(500),
    "mpesa_receipt" VARCHAR(40),
    "payment_id" INTEGER,
    "payment_outcome" VARCHAR(20),
    "payment_reason" VARCHAR(30),
    "days" INTEGER,
    "token" VARCHAR(40),
    "requested_by" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completed_at" TIMESTAMPTZ(3),

    CONSTRAINT "payment_requests_pkey" PRIMARY KEY ("organization_id","request_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "payment_requests_callback_token_key" ON "payment_requests"("callback_token");

-- CreateIndex
CREATE INDEX "payment_requests_organization_id_item_id_request_id_idx" ON "payment_requests"("organization_id", "item_id", "request_id" DESC);

-- CreateIndex
CREATE INDEX "payment_requests_organization_id_customer_id_request_id_idx" ON "payment_requests"("organization_id", "customer_id", "request_id" DESC);

-- CreateIndex
CREATE INDEX "payment_requests_requested_by_idx" ON "payment_requests"("requested_by");

-- AddForeignKey
ALTER TABLE "payment_requests" ADD CONSTRAINT "payment_requests_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("organization_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "payment_requests" ADD CONSTRAINT "payment_requests_organization_id_item_id_fkey" FOREIGN KEY ("organization_id", "item_id") REFERENCES "items"("organization_id", "item_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "payment_requests" ADD CONSTRAINT "payment_requests_organization_id_customer_id_fkey" FOREIGN KEY ("organization_id", "customer_id") REFERENCES "customers"("organization_id", "customer_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "payment_requests" ADD CONSTRAINT "payment_requests_requested_by_fkey" FOREIGN KEY ("requested_by") REFERENCES "users"("user_id") ON DELETE SET NULL ON UPDATE CASCADE;

