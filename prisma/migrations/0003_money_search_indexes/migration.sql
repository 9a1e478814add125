-- What Prisma's schema language cannot express; written by hand.

-- Partial-match search on the token log (serial number, customer name, token
-- value) and on the message history (both texts and the phone numbers).
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE INDEX "token_logs_serial_number_trgm" ON "token_logs" USING gin ("serial_number" gin_trgm_ops);
CREATE INDEX "token_logs_customer_name_trgm" ON "token_logs" USING gin ("customer_name" gin_trgm_ops);
CREATE INDEX "token_logs_token_value_trgm" ON "token_logs" USING gin ("token_value" gin_trgm_ops);

CREATE INDEX "messages_received_message_trgm" ON "messages" USING gin ("received_message" gin_trgm_ops);
CREATE INDEX "messages_forwarded_message_trgm" ON "messages" USING gin ("forwarded_message" gin_trgm_ops);
CREATE INDEX "messages_recipient_number_trgm" ON "messages" USING gin ("recipient_number" gin_trgm_ops);
CREATE INDEX "messages_sender_trgm" ON "messages" USING gin ("sender" gin_trgm_ops);

