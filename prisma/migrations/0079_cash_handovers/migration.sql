-- Cash in hand (GET /payg/cash): the cash a user collected from customers (the
-- cash payments they recorded) less what they handed over to an owner or
-- admin, who records each handover here (README "Cash in hand"). Keyed by the
-- collector's username, as payments.recorded_by is: a user who leaves or is
-- deleted still owes the cash they held.
CREATE TABLE "cash_handovers" (
    "handover_id" SERIAL NOT NULL,
    "organization_id" VARCHAR(64) NOT NULL,
    "collector" VARCHAR(100) NOT NULL,
    "amount" DECIMAL(14,2) NOT NULL,
    "currency" VARCHAR(3) NOT NULL,
    "handed_at" TIMESTAMPTZ(3) NOT NULL,
    "received_by" VARCHAR(100) NOT NULL,
    "reference" VARCHAR(64),
    "note" VARCHAR(300),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "voided_at" TIMESTAMPTZ(3),
    "voided_by" VARCHAR(100),
    "void_reason" VARCHAR(200),

    CONSTRAINT "cash_handovers_pkey" PRIMARY KEY ("organization_id","handover_id"),
    CONSTRAINT "cash_handovers_amount_check" CHECK ("amount" > 0),
    CONSTRAINT "cash_handovers_void_check" CHECK (("voided_at" IS NULL) = ("voided_by" IS NULL) AND ("voided_at" IS NULL) = ("void_reason" IS NULL))
);

CREATE INDEX "cash_handovers_organization_id_collector_handed_at_idx" ON "cash_handovers"("organization_id", "collector", "handed_at" DESC);

ALTER TABLE "cash_handovers" ADD CONSTRAINT "cash_handovers_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("organization_id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- The cash payments staff recorded, by who recorded them: what each holds is
-- read from this index alone, however many mobile-money payments there are.
CREATE INDEX "payments_cash_by_collector" ON "payments"("organization_id", "recorded_by", "paid_at")
  INCLUDE ("amount", "currency", "status") WHERE "payment_method" = 'cash' AND "source" = 'manual';
