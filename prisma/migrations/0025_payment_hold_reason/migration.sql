-- AlterTable
ALTER TABLE "payments" ADD COLUMN "hold_reason" VARCHAR(300);

-- Why each payment waiting for a match was held, so the held payments list
-- can say it (a statement row has no message to read it from). The ones held
-- before this column keep the reason their message recorded, else the
-- reason they were held for: no single device matched what was sent.
UPDATE "payments" p
SET "hold_reason" = left(coalesce(
      (SELECT m.result #>> '{outcome,hold_reason}' FROM messages m
       WHERE m.organization_id = p.organization_id AND m.message_id = p.message_id),
      CASE WHEN p.account_reference IS NOT NULL AND p.account_reference <> ''
           THEN 'Account ' || p.account_reference || ' matches no single device'
           ELSE 'No account number was given, and the payer''s phone matches no single device' END), 300)
WHERE p.status = 'pending';
