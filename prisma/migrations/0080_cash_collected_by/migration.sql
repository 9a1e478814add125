-- Who holds the cash of a cash payment recorded by hand (README "Cash in hand"):
-- the user named as having collected it (a clerk entering a field agent's
-- receipts names the agent), else whoever recorded it. Only cash payments
-- recorded by hand have one; those recorded before are their recorder's.
ALTER TABLE "payments" ADD COLUMN "collected_by" VARCHAR(100);
UPDATE "payments" SET "collected_by" = "recorded_by" WHERE "payment_method" = 'cash' AND "source" = 'manual';

-- What each collector holds is read from this index alone: by collector now, not by recorder.
DROP INDEX "payments_cash_by_collector";
CREATE INDEX "payments_cash_by_collector" ON "payments"("organization_id", "collected_by", "paid_at")
  INCLUDE ("amount", "currency", "status") WHERE "payment_method" = 'cash' AND "source" = 'manual';
