-- Who gave M-Pesa's answer to a payment request: its posted result (callback) or a check staff asked for (check).
-- Results before this column came by callback.
-- AlterTable
ALTER TABLE "payment_requests" ADD COLUMN     "answered_by" VARCHAR(10);
UPDATE "payment_requests" SET "answered_by" = 'callback' WHERE "status" IN ('paid', 'cancelled') OR "result_code" IS NOT NULL;
