-- The Promises list (GET /collections/promises) reads the promises to pay
-- whose day is in its window: this partial index finds them by day without
-- reading the organization's other calls and visits.

CREATE INDEX "collection_contacts_promise_days" ON "collection_contacts"("organization_id", "promised_on")
  WHERE "outcome" = 'promised_to_pay';
