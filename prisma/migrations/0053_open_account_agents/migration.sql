-- Collections by sales agent: a field agent's own worklist, the devices of
-- their customers out of credit. The agent (customers.agent_id, trimmed;
-- NULL for none, as the Agent report reads it) is kept on each open account
-- beside `since`, so that one agent's accounts, in list order, are one range
-- of an index and never a walk through everyone's accounts joined to their
-- customers.
ALTER TABLE "open_accounts" ADD COLUMN "agent" VARCHAR(64);

UPDATE open_accounts o SET agent = nullif(btrim(c.agent_id), '')
FROM items i JOIN customers c ON c.organization_id = i.organization_id AND c.customer_id = i.customer_id
WHERE i.organization_id = o.organization_id AND i.item_id = o.item_id AND nullif(btrim(c.agent_id), '') IS NOT NULL;

CREATE INDEX "open_accounts_organization_id_agent_since_item_id_idx" ON "open_accounts"("organization_id", "agent", "since", "item_id");

-- As before, with the agent of the device's customer: looked up by key when
-- the account is written (one customer row), so a payment that moves `since`
-- reads one more index entry.
CREATE OR REPLACE FUNCTION kidogo_open_account() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO open_accounts (organization_id, item_id, since, agent)
    SELECT n.organization_id, n.item_id, coalesce(n.credit_until, n.assigned_at, n.created_at), nullif(btrim(c.agent_id), '')
    FROM new_rows n
    LEFT JOIN customers c ON c.organization_id = n.organization_id AND c.customer_id = n.customer_id
    WHERE n.is_assigned AND n.paid_off_at IS NULL AND n.customer_id IS NOT NULL;
  ELSIF NEW.is_assigned AND NEW.paid_off_at IS NULL AND NEW.customer_id IS NOT NULL THEN
    INSERT INTO open_accounts (organization_id, item_id, since, agent)
    VALUES (NEW.organization_id, NEW.item_id, coalesce(NEW.credit_until, NEW.assigned_at, NEW.created_at),
            (SELECT nullif(btrim(c.agent_id), '') FROM customers c
             WHERE c.organization_id = NEW.organization_id AND c.customer_id = NEW.customer_id))
    ON CONFLICT (organization_id, item_id) DO UPDATE SET since = excluded.since, agent = excluded.agent
      WHERE open_accounts.since IS DISTINCT FROM excluded.since OR open_accounts.agent IS DISTINCT FROM excluded.agent;
  ELSE
    DELETE FROM open_accounts WHERE organization_id = OLD.organization_id AND item_id = OLD.item_id;
  END IF;
  RETURN NULL;
END $$;

-- A customer given to another agent takes their open accounts along.
CREATE FUNCTION kidogo_open_account_agent() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE open_accounts o SET agent = nullif(btrim(NEW.agent_id), '')
  FROM items i
  WHERE i.organization_id = NEW.organization_id AND i.customer_id = NEW.customer_id
    AND o.organization_id = i.organization_id AND o.item_id = i.item_id
    AND o.agent IS DISTINCT FROM nullif(btrim(NEW.agent_id), '');
  RETURN NULL;
END $$;

CREATE TRIGGER open_account_agent AFTER UPDATE OF agent_id ON customers FOR EACH ROW
  WHEN (nullif(btrim(OLD.agent_id), '') IS DISTINCT FROM nullif(btrim(NEW.agent_id), ''))
  EXECUTE FUNCTION kidogo_open_account_agent();
