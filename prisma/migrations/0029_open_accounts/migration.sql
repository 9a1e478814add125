-- The Collections screen: the devices out of credit, most recently run out
-- first. Which devices those are depends on items.credit_until, which every
-- payment and every token moves; indexing it on items would end the HOT
-- updates of 0008_items_fillfactor (each payment would then write all of the
-- device's indexes, four of them trigram indexes). So the open accounts,
-- devices given to a customer and not yet paid off, are kept beside items
-- with that date, by triggers in the writer's own transaction: a payment
-- moves one narrow row and its two index entries.

CREATE TABLE "open_accounts" (
    "organization_id" VARCHAR(64) NOT NULL,
    "item_id" INTEGER NOT NULL,
    "since" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "open_accounts_pkey" PRIMARY KEY ("organization_id","item_id")
);

CREATE INDEX "open_accounts_organization_id_since_item_id_idx" ON "open_accounts"("organization_id", "since", "item_id");

ALTER TABLE "open_accounts" ADD CONSTRAINT "open_accounts_organization_id_item_id_fkey" FOREIGN KEY ("organization_id", "item_id") REFERENCES "items"("organization_id", "item_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- One row's account: kept while the device is open, with credit_until (else
-- when it was assigned), and removed once it is not (unassigned, paid off).
CREATE FUNCTION kidogo_open_account() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO open_accounts (organization_id, item_id, since)
    SELECT organization_id, item_id, coalesce(credit_until, assigned_at, created_at) FROM new_rows
    WHERE is_assigned AND paid_off_at IS NULL AND customer_id IS NOT NULL;
  ELSIF NEW.is_assigned AND NEW.paid_off_at IS NULL AND NEW.customer_id IS NOT NULL THEN
    INSERT INTO open_accounts (organization_id, item_id, since)
    VALUES (NEW.organization_id, NEW.item_id, coalesce(NEW.credit_until, NEW.assigned_at, NEW.created_at))
    ON CONFLICT (organization_id, item_id) DO UPDATE SET since = excluded.since
      WHERE open_accounts.since IS DISTINCT FROM excluded.since;
  ELSE
    DELETE FROM open_accounts WHERE organization_id = OLD.organization_id AND item_id = OLD.item_id;
  END IF;
  RETURN NULL;
END $$;

-- Inserts: one statement-level trigger over the statement's rows (imports).
CREATE TRIGGER open_account_insert AFTER INSERT ON items REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION kidogo_open_account();
-- Updates: only when a column it depends on really changed.
CREATE TRIGGER open_account_update
  AFTER UPDATE OF is_assigned, customer_id, paid_off_at, credit_until, assigned_at ON items FOR EACH ROW
  WHEN (OLD.is_assigned IS DISTINCT FROM NEW.is_assigned OR OLD.customer_id IS DISTINCT FROM NEW.customer_id
        OR OLD.paid_off_at IS DISTINCT FROM NEW.paid_off_at OR OLD.credit_until IS DISTINCT FROM NEW.credit_until
        OR OLD.assigned_at IS DISTINCT FROM NEW.assigned_at)
  EXECUTE FUNCTION kidogo_open_account();

INSERT INTO open_accounts (organization_id, item_id, since)
SELECT organization_id, item_id, coalesce(credit_until, assigned_at, created_at) FROM items
WHERE is_assigned AND paid_off_at IS NULL AND customer_id IS NOT NULL;
