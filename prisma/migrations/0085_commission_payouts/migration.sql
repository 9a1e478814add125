-- Agent commission payouts (POST /payg/commissions/payouts): once a month is
-- over, each sales agent's commission for it (Settings, Agent Commissions,
-- reckoned as the Agent report does) is paid and recorded here, the amount
-- frozen as reckoned when paid, with what it was reckoned from. A payout
-- recorded by mistake is voided with why and stays listed; at most one
-- standing payout per agent and month (the partial unique index).
CREATE TABLE "commission_payouts" (
    "payout_id" SERIAL NOT NULL,
    "organization_id" VARCHAR(64) NOT NULL,
    "agent" VARCHAR(64) NOT NULL,
    "month" DATE NOT NULL,
    "devices_given" INTEGER NOT NULL,
    "payments" INTEGER NOT NULL,
    "revenue" DECIMAL(20,2) NOT NULL,
    "per_device" DECIMAL(20,2) NOT NULL,
    "percent" DECIMAL(5,2) NOT NULL,
    "amount" DECIMAL(20,2) NOT NULL,
    "reference" VARCHAR(64),
    "note" VARCHAR(300),
    "paid_by" VARCHAR(100) NOT NULL,
    "paid_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "voided_at" TIMESTAMPTZ(3),
    "voided_by" VARCHAR(100),
    "void_reason" VARCHAR(200),

    CONSTRAINT "commission_payouts_pkey" PRIMARY KEY ("organization_id","payout_id"),
    CONSTRAINT "commission_payouts_month_check" CHECK (extract(day FROM "month") = 1),
    CONSTRAINT "commission_payouts_amount_check" CHECK ("amount" > 0)
);

CREATE INDEX "commission_payouts_organization_id_month_idx" ON "commission_payouts"("organization_id", "month");
CREATE INDEX "commission_payouts_organization_id_agent_month_idx" ON "commission_payouts"("organization_id", "agent", "month" DESC);
CREATE UNIQUE INDEX "commission_payouts_standing_key" ON "commission_payouts"("organization_id", "agent", "month") WHERE "voided_at" IS NULL;

ALTER TABLE "commission_payouts" ADD CONSTRAINT "commission_payouts_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("organization_id") ON DELETE RESTRICT ON UPDATE CASCADE;
