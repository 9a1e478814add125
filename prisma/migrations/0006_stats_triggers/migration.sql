-- What Prisma's schema language cannot express; written by hand.
--
-- The running totals of 0005_stats_tables, kept by triggers in the writer's
-- own transaction. Every change adds rows of deltas (never updates a shared
-- counter row, so concurrent payments do not queue on one row lock):
--   INSERT and DELETE: one statement-level trigger that groups the whole
--   statement's rows (a 100,000-row import adds a handful of rows);
--   UPDATE: a row-level trigger on the counted columns only, and only when
--   one of them really changed (the payment pipeline's updates of credit,
--   counts and dates never fire it);
--   TRUNCATE: empties the totals.
-- Days are UTC calendar days, like the revenue series.

-- Customers per creation day and status --------------------------------------
CREATE FUNCTION kidogo_customer_stats() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO customer_stats (organization_id, day, status, n)
    SELECT organization_id, (created_at AT TIME ZONE 'UTC')::date, status, count(*)::int FROM new_rows GROUP BY 1, 2, 3;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO customer_stats (organization_id, day, status, n)
    SELECT organization_id, (created_at AT TIME ZONE 'UTC')::date, status, -count(*)::int FROM old_rows GROUP BY 1, 2, 3;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO customer_stats (organization_id, day, status, n) VALUES
      (OLD.organization_id, (OLD.created_at AT TIME ZONE 'UTC')::date, OLD.status, -1),
      (NEW.organization_id, (NEW.created_at AT TIME ZONE 'UTC')::date, NEW.status, 1);
  ELSE
    DELETE FROM customer_stats;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER customer_stats_insert AFTER INSERT ON customers REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION kidogo_customer_stats();
CREATE TRIGGER customer_stats_delete AFTER DELETE ON customers REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION kidogo_customer_stats();
CREATE TRIGGER customer_stats_update AFTER UPDATE OF organization_id, created_at, status ON customers FOR EACH ROW
  WHEN (OLD.organization_id IS DISTINCT FROM NEW.organization_id OR OLD.created_at IS DISTINCT FROM NEW.created_at
        OR OLD.status IS DISTINCT FROM NEW.status)
  EXECUTE FUNCTION kidogo_customer_stats();
CREATE TRIGGER customer_stats_truncate AFTER TRUNCATE ON customers
  FOR EACH STATEMENT EXECUTE FUNCTION kidogo_customer_stats();

INSERT INTO customer_stats (organization_id, day, status, n)
SELECT organization_id, (created_at AT TIME ZONE 'UTC')::date, status, count(*)::int FROM customers GROUP BY 1, 2, 3;

-- Devices per assignment, status and product name -----------------------------
CREATE FUNCTION kidogo_item_stats() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO item_stats (organization_id, is_assigned, status, product_name, n)
    SELECT organization_id, is_assigned, status, product_name, count(*)::int FROM new_rows GROUP BY 1, 2, 3, 4;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO item_stats (organization_id, is_assigned, status, product_name, n)
    SELECT organization_id, is_assigned, status, product_name, -count(*)::int FROM old_rows GROUP BY 1, 2, 3, 4;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO item_stats (organization_id, is_assigned, status, product_name, n) VALUES
      (OLD.organization_id, OLD.is_assigned, OLD.status, OLD.product_name, -1),
      (NEW.organization_id, NEW.is_assigned, NEW.status, NEW.product_name, 1);
  ELSE
    DELETE FROM item_stats;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER item_stats_insert AFTER INSERT ON items REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION kidogo_item_stats();
CREATE TRIGGER item_stats_delete AFTER DELETE ON items REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION kidogo_item_stats();
CREATE TRIGGER item_stats_update AFTER UPDATE OF organization_id, is_assigned, status, product_name ON items FOR EACH ROW
  WHEN (OLD.organization_id IS DISTINCT FROM NEW.organization_id OR OLD.is_assigned IS DISTINCT FROM NEW.is_assigned
        OR OLD.status IS DISTINCT FROM NEW.status OR OLD.product_name IS DISTINCT FROM NEW.product_name)
  EXECUTE FUNCTION kidogo_item_stats();
CREATE TRIGGER item_stats_truncate AFTER TRUNCATE ON items
  FOR EACH STATEMENT EXECUTE FUNCTION kidogo_item_stats();

INSERT INTO item_stats (organization_id, is_assigned, status, product_name, n)
SELECT organization_id, is_assigned, status, product_name, count(*)::int FROM items GROUP BY 1, 2, 3, 4;

-- Payments per day paid and status, with their amount ------------------------
CREATE FUNCTION kidogo_payment_stats() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO payment_stats (organization_id, day, status, n, amount)
    SELECT organization_id, (paid_at AT TIME ZONE 'UTC')::date, status, count(*)::int, sum(amount) FROM new_rows GROUP BY 1, 2, 3;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO payment_stats (organization_id, day, status, n, amount)
    SELECT organization_id, (paid_at AT TIME ZONE 'UTC')::date, status, -count(*)::int, -sum(amount) FROM old_rows GROUP BY 1, 2, 3;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO payment_stats (organization_id, day, status, n, amount) VALUES
      (OLD.organization_id, (OLD.paid_at AT TIME ZONE 'UTC')::date, OLD.status, -1, -OLD.amount),
      (NEW.organization_id, (NEW.paid_at AT TIME ZONE 'UTC')::date, NEW.status, 1, NEW.amount);
  ELSE
    DELETE FROM payment_stats;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER payment_stats_insert AFTER INSERT ON payments REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION kidogo_payment_stats();
CREATE TRIGGER payment_stats_delete AFTER DELETE ON payments REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION kidogo_payment_stats();
CREATE TRIGGER payment_stats_update AFTER UPDATE OF organization_id, paid_at, status, amount ON payments FOR EACH ROW
  WHEN (OLD.organization_id IS DISTINCT FROM NEW.organization_id OR OLD.paid_at IS DISTINCT FROM NEW.paid_at
        OR OLD.status IS DISTINCT FROM NEW.status OR OLD.amount IS DISTINCT FROM NEW.amount)
  EXECUTE FUNCTION kidogo_payment_stats();
CREATE TRIGGER payment_stats_truncate AFTER TRUNCATE ON payments
  FOR EACH STATEMENT EXECUTE FUNCTION kidogo_payment_stats();

INSERT INTO payment_stats (organization_id, day, status, n, amount)
SELECT organization_id, (paid_at AT TIME ZONE 'UTC')::date, status, count(*)::int, sum(amount) FROM payments GROUP BY 1, 2, 3;

-- Tokens per day generated, type and validity, with their days ---------------
CREATE FUNCTION kidogo_token_stats() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO token_stats (organization_id, day, token_type, is_valid, n, days)
    SELECT organization_id, (created_at AT TIME ZONE 'UTC')::date, token_type, is_valid, count(*)::int, sum(days_generated)
    FROM new_rows GROUP BY 1, 2, 3, 4;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO token_stats (organization_id, day, token_type, is_valid, n, days)
    SELECT organization_id, (created_at AT TIME ZONE 'UTC')::date, token_type, is_valid, -count(*)::int, -sum(days_generated)
    FROM old_rows GROUP BY 1, 2, 3, 4;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO token_stats (organization_id, day, token_type, is_valid, n, days) VALUES
      (OLD.organization_id, (OLD.created_at AT TIME ZONE 'UTC')::date, OLD.token_type, OLD.is_valid, -1, -OLD.days_generated),
      (NEW.organization_id, (NEW.created_at AT TIME ZONE 'UTC')::date, NEW.token_type, NEW.is_valid, 1, NEW.days_generated);
  ELSE
    DELETE FROM token_stats;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER token_stats_insert AFTER INSERT ON token_logs REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION kidogo_token_stats();
CREATE TRIGGER token_stats_delete AFTER DELETE ON token_logs REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION kidogo_token_stats();
CREATE TRIGGER token_stats_update AFTER UPDATE OF organization_id, created_at, token_type, is_valid, days_generated ON token_logs FOR EACH ROW
  WHEN (OLD.organization_id IS DISTINCT FROM NEW.organization_id OR OLD.created_at IS DISTINCT FROM NEW.created_at
        OR OLD.token_type IS DISTINCT FROM NEW.token_type OR OLD.is_valid IS DISTINCT FROM NEW.is_valid
        OR OLD.days_generated IS DISTINCT FROM NEW.days_generated)
  EXECUTE FUNCTION kidogo_token_stats();
CREATE TRIGGER token_stats_truncate AFTER TRUNCATE ON token_logs
  FOR EACH STATEMENT EXECUTE FUNCTION kidogo_token_stats();

INSERT INTO token_stats (organization_id, day, token_type, is_valid, n, days)
SELECT organization_id, (created_at AT TIME ZONE 'UTC')::date, token_type, is_valid, count(*)::int, sum(days_generated)
FROM token_logs GROUP BY 1, 2, 3, 4;
