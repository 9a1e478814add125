-- Kidogo asks M-Pesa by itself, once, about a request whose result has not come 3 minutes after it was sent; and
-- finds the request a payment whose account M-Pesa cut to 12 characters was for.
-- AlterTable
ALTER TABLE "payment_requests" ADD COLUMN     "auto_checked_at" TIMESTAMPTZ(3);

-- The sweep's look-up: only the requests still waiting and not yet asked about (a handful, in any organization).
CREATE INDEX "payment_requests_unanswered" ON "payment_requests" ("created_at") WHERE "status" = 'pending' AND "auto_checked_at" IS NULL;

-- The last day's requests of an organization, where a paybill confirmation or SMS whose 12-character account is a
-- longer serial number cut by M-Pesa is looked for.
CREATE INDEX "payment_requests_organization_id_created_at_idx" ON "payment_requests"("organization_id", "created_at");
