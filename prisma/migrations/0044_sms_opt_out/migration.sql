-- A customer who texts STOP (or asks staff) gets no more texts nobody asked
-- for: payment reminders, texts from staff, texts to a Collections band.
-- The code for a payment they make and the answer to BAL still go.
ALTER TABLE "customers" ADD COLUMN "sms_opted_out_at" TIMESTAMPTZ(3),
ADD COLUMN "sms_opt_out_source" VARCHAR(20);
