-- An SMS staff write to a customer (POST /payg/customers/{id}/sms) is an
-- outgoing message like a reply or a reminder; who wrote it tells it apart in
-- the Message History. No default: the existing rows are not rewritten.
ALTER TABLE "messages" ADD COLUMN "sent_by" VARCHAR(100);
