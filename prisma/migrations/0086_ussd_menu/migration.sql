-- The customers' USSD menu (POST /payg/external/ussd/{key}): a customer dials
-- the organization's USSD code and, from their own phone, reads their
-- balance, gets their last code again, pays, or reports a problem. The key in
-- the address is kept as sha256 (looked up on every step) and sealed (owners
-- read the address back); the menu answers while ussd_enabled_at is set.
ALTER TABLE "organizations" ADD COLUMN "ussd_key_hash" VARCHAR(64),
    ADD COLUMN "ussd_key_enc" TEXT,
    ADD COLUMN "ussd_enabled_at" TIMESTAMPTZ(3),
    ADD COLUMN "ussd_enabled_by" VARCHAR(100);

CREATE UNIQUE INDEX "organizations_ussd_key_hash_key" ON "organizations"("ussd_key_hash");

-- One row per gateway session, written at every step: who dialled, how far
-- they went and what it ended with (Settings, USSD Menu, Recent Sessions).
CREATE TABLE "ussd_sessions" (
    "ussd_session_id" SERIAL NOT NULL,
    "organization_id" VARCHAR(64) NOT NULL,
    "session_id" VARCHAR(100) NOT NULL,
    "phone_number" VARCHAR(30) NOT NULL,
    "customer_id" INTEGER,
    "service_code" VARCHAR(40),
    "network_code" VARCHAR(20),
    "steps" INTEGER NOT NULL DEFAULT 0,
    "outcome" VARCHAR(20) NOT NULL,
    "detail" VARCHAR(300),
    -- The answers (the gateway's text) of the last step acted on, and the last screen sent: a step the gateway
    -- posts again (a retry) is answered with the same screen, and what it did (a text, a payment asked for, a
    -- ticket) is not done twice.
    "acted_text" VARCHAR(500),
    "reply" VARCHAR(200),
    "started_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ussd_sessions_pkey" PRIMARY KEY ("organization_id","ussd_session_id")
);

CREATE UNIQUE INDEX "ussd_sessions_organization_id_session_id_key" ON "ussd_sessions"("organization_id", "session_id");
CREATE INDEX "ussd_sessions_organization_id_started_at_idx" ON "ussd_sessions"("organization_id", "started_at");
CREATE INDEX "ussd_sessions_organization_id_customer_id_idx" ON "ussd_sessions"("organization_id", "customer_id");

ALTER TABLE "ussd_sessions" ADD CONSTRAINT "ussd_sessions_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("organization_id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "ussd_sessions" ADD CONSTRAINT "ussd_sessions_organization_id_customer_id_fkey" FOREIGN KEY ("organization_id", "customer_id") REFERENCES "customers"("organization_id", "customer_id") ON DELETE CASCADE ON UPDATE CASCADE;
