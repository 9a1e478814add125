-- Webhook deliveries are claimed a few per endpoint at a time, endpoint by
-- endpoint (WebhookDeliveryService.claim): one organization's burst (an
-- import of 100,000 customers, a resumed endpoint's backlog) no longer holds
-- back every other organization's events, nor floods its own receiver with
-- as many requests at once as the worker sends. This is each endpoint's due
-- queue, in the order it is sent.
CREATE INDEX "webhook_deliveries_endpoint_due" ON "webhook_deliveries"("organization_id", "endpoint_id", "next_attempt_at", "delivery_id")
  WHERE "status" IN ('pending', 'delivering');
