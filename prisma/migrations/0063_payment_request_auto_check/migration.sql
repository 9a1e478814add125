-- Kidogo asks M-Pesa by itself, once, about a request whose result has not come 3 minutes after it was sent.
-- AlterTable
ALTER TABLE "payment_requests" ADD COLUMN     "auto_checked_at" TIMESTAMPTZ(3);

-- The sweep's look-up: only the requests still waiting and not yet asked about (a handful, in any organization).
CREATE INDEX "payment_requests_unanswered" ON "payment_requests" ("created_at") WHERE "status" = 'pending' AND "auto_checked_at" IS NULL;
