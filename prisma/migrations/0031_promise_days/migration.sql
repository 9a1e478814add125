-- Promises to pay (GET /collections/promises): each promise carries what the
-- list judges it by, kept up to date by triggers, so that listing and
-- counting a large organization's promises reads only their index.
--
--   paid_at, paid_amount: the device's first successful payment at or after
--     the promise was logged (its paid_at), set as payments are written or
--     become successful (a held payment applied later);
--   superseded: a newer promise about the device with the same customer was
--     logged (POST /collections/{item_id}/contacts sets it), or the device
--     left that customer (unassigned or given to another): the list then
--     leaves the promise out.

ALTER TABLE "collection_contacts" ADD COLUMN "paid_at" TIMESTAMPTZ(3),
  ADD COLUMN "paid_amount" DECIMAL(14,2),
  ADD COLUMN "superseded" BOOLEAN NOT NULL DEFAULT false;

UPDATE collection_contacts cc SET superseded = true
WHERE cc.outcome = 'promised_to_pay'
  AND (EXISTS (SELECT 1 FROM collection_contacts n
               WHERE n.organization_id = cc.organization_id AND n.item_id = cc.item_id AND n.customer_id = cc.customer_id
                 AND n.outcome = 'promised_to_pay' AND (n.created_at, n.contact_id) > (cc.created_at, cc.contact_id))
       OR NOT EXISTS (SELECT 1 FROM items i
                      WHERE i.organization_id = cc.organization_id AND i.item_id = cc.item_id AND i.customer_id = cc.customer_id));

UPDATE collection_contacts cc SET (paid_at, paid_amount) = (fp.paid_at, fp.amount)
FROM collection_contacts c2
CROSS JOIN LATERAL (
  SELECT p.paid_at, p.amount FROM payments p
  WHERE p.organization_id = c2.organization_id AND p.item_id = c2.item_id AND p.status IN ('success', 'completed')
    AND p.paid_at >= c2.created_at
  ORDER BY p.paid_at LIMIT 1
) fp
WHERE c2.organization_id = cc.organization_id AND c2.contact_id = cc.contact_id
  AND cc.outcome = 'promised_to_pay' AND NOT cc.superseded;

-- The promises in the list, by day (the list's order and its window).
CREATE INDEX "collection_contacts_promise_days" ON "collection_contacts"("organization_id", "promised_on", "contact_id")
  WHERE "outcome" = 'promised_to_pay' AND NOT "superseded";
-- The same promises by device, for the triggers.
CREATE INDEX "collection_contacts_promise_items" ON "collection_contacts"("organization_id", "item_id")
  WHERE "outcome" = 'promised_to_pay' AND NOT "superseded";

-- Payments written successful. One statement may write many (an import, the
-- benchmark's seed): the transition table is joined once to the promises of
-- its devices (by the promise_items index for a few payments, by a hash for
-- many), never scanned once per promise.
CREATE FUNCTION kidogo_promises_paid() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE collection_contacts cc SET paid_at = f.paid_at, paid_amount = f.amount
  FROM (
    SELECT DISTINCT ON (p.organization_id, p.contact_id) p.organization_id, p.contact_id, n.paid_at, n.amount
    FROM new_rows n
    JOIN collection_contacts p
      ON p.organization_id = n.organization_id AND p.item_id = n.item_id
     AND p.outcome = 'promised_to_pay' AND NOT p.superseded
     AND n.paid_at >= p.created_at AND (p.paid_at IS NULL OR n.paid_at < p.paid_at)
    WHERE n.item_id IS NOT NULL AND n.status IN ('success', 'completed')
    ORDER BY p.organization_id, p.contact_id, n.paid_at
  ) f
  WHERE cc.organization_id = f.organization_id AND cc.contact_id = f.contact_id;
  RETURN NULL;
END $$;
CREATE TRIGGER promises_paid_insert AFTER INSERT ON payments REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION kidogo_promises_paid();

-- A payment that becomes successful, or is applied to a device, after it was written (a held payment).
CREATE FUNCTION kidogo_promises_paid_later() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE collection_contacts cc SET paid_at = NEW.paid_at, paid_amount = NEW.amount
  WHERE cc.organization_id = NEW.organization_id AND cc.item_id = NEW.item_id
    AND cc.outcome = 'promised_to_pay' AND NOT cc.superseded
    AND cc.created_at <= NEW.paid_at AND (cc.paid_at IS NULL OR NEW.paid_at < cc.paid_at);
  RETURN NULL;
END $$;
CREATE TRIGGER promises_paid_update AFTER UPDATE OF status, item_id, paid_at ON payments FOR EACH ROW
  WHEN (NEW.item_id IS NOT NULL AND NEW.status IN ('success', 'completed')
        AND (OLD.status NOT IN ('success', 'completed') OR OLD.item_id IS DISTINCT FROM NEW.item_id OR OLD.paid_at IS DISTINCT FROM NEW.paid_at))
  EXECUTE FUNCTION kidogo_promises_paid_later();

-- A device leaving its customer ends that customer's promises about it.
CREATE FUNCTION kidogo_promises_left() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE collection_contacts SET superseded = true
  WHERE organization_id = OLD.organization_id AND item_id = OLD.item_id AND customer_id = OLD.customer_id
    AND outcome = 'promised_to_pay' AND NOT superseded;
  RETURN NULL;
END $$;
CREATE TRIGGER promises_left AFTER UPDATE OF customer_id ON items FOR EACH ROW
  WHEN (OLD.customer_id IS NOT NULL AND OLD.customer_id IS DISTINCT FROM NEW.customer_id)
  EXECUTE FUNCTION kidogo_promises_left();
