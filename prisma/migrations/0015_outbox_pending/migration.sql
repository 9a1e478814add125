-- What Prisma's schema language cannot express; written by hand.

-- The reply outbox claims, every couple of seconds, the due messages of the
-- organizations that can send SMS. An organization without a provider keeps
-- its replies queued, and they pile up: on the benchmark, 180,000 of them,
-- which the claim read on every poll through the (delivery_status,
-- next_attempt_at) index before discarding them by organization (190 ms of
-- PostgreSQL every 2 s, a dip in every load test). The messages waiting to be
-- sent, by organization: a poll reads only the organizations it can send for.
CREATE INDEX "messages_outbox_pending" ON "messages" ("organization_id", "next_attempt_at")
  WHERE "delivery_status" IN ('queued', 'sending');
