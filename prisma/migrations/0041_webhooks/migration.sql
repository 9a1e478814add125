-- Event webhooks (GET/POST /payg/webhooks): an organization's endpoints and
-- the deliveries to them. A delivery is written by the statement that makes
-- its event (a payment applied, held, reversed or rejected, a staff token, a
-- repossession), so an event goes out if and only if its change committed;
-- WebhookDeliveryService sends it, signed, with retries.
CREATE TYPE "WebhookDeliveryStatus" AS ENUM ('pending', 'delivering', 'delivered', 'failed');

CREATE TABLE "webhook_endpoints" (
    "endpoint_id" SERIAL NOT NULL,
    "organization_id" VARCHAR(64) NOT NULL,
    "url" VARCHAR(2000) NOT NULL,
    "description" VARCHAR(200),
    "events" VARCHAR(50)[],
    "secret_enc" TEXT NOT NULL,
    "secret_hint" VARCHAR(20) NOT NULL,
    "is_active" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "created_by" VARCHAR(100),
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_endpoints_pkey" PRIMARY KEY ("organization_id","endpoint_id")
);

CREATE TABLE "webhook_deliveries" (
    "delivery_id" SERIAL NOT NULL,
    "organization_id" VARCHAR(64) NOT NULL,
    "endpoint_id" INTEGER NOT NULL,
    "event_id" UUID NOT NULL,
    "event_type" VARCHAR(50) NOT NULL,
    "payload" JSON NOT NULL,
    "status" "WebhookDeliveryStatus" NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3) DEFAULT CURRENT_TIMESTAMP,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_attempt_at" TIMESTAMPTZ(3),
    "delivered_at" TIMESTAMPTZ(3),
    "response_status" INTEGER,
    "response_body" VARCHAR(500),
    "duration_ms" INTEGER,
    "last_error" VARCHAR(1000),

    CONSTRAINT "webhook_deliveries_pkey" PRIMARY KEY ("organization_id","delivery_id")
);

CREATE INDEX "webhook_deliveries_organization_id_endpoint_id_delivery_id_idx" ON "webhook_deliveries"("organization_id", "endpoint_id", "delivery_id" DESC);
CREATE INDEX "webhook_deliveries_status_next_attempt_at_idx" ON "webhook_deliveries"("status", "next_attempt_at");
CREATE INDEX "webhook_deliveries_created_at_idx" ON "webhook_deliveries"("created_at");

ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("organization_id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_organization_id_endpoint_id_fkey" FOREIGN KEY ("organization_id", "endpoint_id") REFERENCES "webhook_endpoints"("organization_id", "endpoint_id") ON DELETE CASCADE ON UPDATE CASCADE;
