-- What Prisma's schema language cannot express; written by hand.
--
-- Days in the business time zone (TIME_ZONE), not UTC: a payment at 01:00
-- in Nairobi is that day's, not the day before's. The running totals of
-- 0005/0006 file every row under kidogo_day(its time), and the API reads
-- whole days from them and partial days from the rows grouped by the same
-- function, so both must agree on the zone.
--
-- The zone is the installation's setting, not the schema's: the API
-- replaces kidogo_day and kidogo_day_start at start with TIME_ZONE written
-- into them (see apps/api/src/database/business-day.ts), and when the zone
-- the totals were built with (_kidogo_time_zone; no row: UTC, as 0006 built
-- them) differs, rebuilds the totals from the rows in the same transaction.
-- Here both functions keep UTC, so this migration changes no total and
-- anything that writes before the API first starts (a restore, the
-- benchmark's seeding) stays consistent with what the table says.

CREATE TABLE "_kidogo_time_zone" (
    "one" BOOLEAN NOT NULL DEFAULT true CHECK ("one"),
    "time_zone" TEXT NOT NULL,
    "built_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "_kidogo_time_zone_pkey" PRIMARY KEY ("one")
);

-- The business day of an instant. IMMUTABLE (the zone is a constant in its
-- body), so PostgreSQL inlines it: the triggers cost what they did. No index
-- may ever be built on it, since a new zone replaces it.
CREATE FUNCTION kidogo_day(timestamptz) RETURNS date
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT ($1 AT TIME ZONE 'UTC')::date $$;

-- The first instant of a business day, for reading one day's rows from an
-- index on a timestamp. PostgreSQL reads a skipped local midnight with the
-- offset before the jump and a repeated one as its second occurrence; the
-- earliest of that instant and those half an hour, an hour and two hours
-- before it that is still on the day is the day's real start in every
-- zone's rules. One expression, so that it is inlined too.
CREATE FUNCTION kidogo_day_start(date) RETURNS timestamptz
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT CASE
    WHEN kidogo_day(($1::timestamp AT TIME ZONE 'UTC') - interval '2 hours') >= $1 THEN ($1::timestamp AT TIME ZONE 'UTC') - interval '2 hours'
    WHEN kidogo_day(($1::timestamp AT TIME ZONE 'UTC') - interval '1 hour') >= $1 THEN ($1::timestamp AT TIME ZONE 'UTC') - interval '1 hour'
    WHEN kidogo_day(($1::timestamp AT TIME ZONE 'UTC') - interval '30 minutes') >= $1 THEN ($1::timestamp AT TIME ZONE 'UTC') - interval '30 minutes'
    ELSE $1::timestamp AT TIME ZONE 'UTC' END $$;

-- The triggers of 0006, with kidogo_day for the day.
CREATE OR REPLACE FUNCTION kidogo_customer_stats() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO customer_stats (organization_id, day, status, n)
    SELECT organization_id, kidogo_day(created_at), status, count(*)::int FROM new_rows GROUP BY 1, 2, 3;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO customer_stats (organization_id, day, status, n)
    SELECT organization_id, kidogo_day(created_at), status, -count(*)::int FROM old_rows GROUP BY 1, 2, 3;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO customer_stats (organization_id, day, status, n) VALUES
      (OLD.organization_id, kidogo_day(OLD.created_at), OLD.status, -1),
      (NEW.organization_id, kidogo_day(NEW.created_at), NEW.status, 1);
  ELSE
    DELETE FROM customer_stats;
  END IF;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION kidogo_payment_stats() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO payment_stats (organization_id, day, status, n, amount)
    SELECT organization_id, kidogo_day(paid_at), status, count(*)::int, sum(amount) FROM new_rows GROUP BY 1, 2, 3;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO payment_stats (organization_id, day, status, n, amount)
    SELECT organization_id, kidogo_day(paid_at), status, -count(*)::int, -sum(amount) FROM old_rows GROUP BY 1, 2, 3;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO payment_stats (organization_id, day, status, n, amount) VALUES
      (OLD.organization_id, kidogo_day(OLD.paid_at), OLD.status, -1, -OLD.amount),
      (NEW.organization_id, kidogo_day(NEW.paid_at), NEW.status, 1, NEW.amount);
  ELSE
    DELETE FROM payment_stats;
  END IF;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION kidogo_token_stats() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO token_stats (organization_id, day, token_type, is_valid, n, days)
    SELECT organization_id, kidogo_day(created_at), token_type, is_valid, count(*)::int, sum(days_generated)
    FROM new_rows GROUP BY 1, 2, 3, 4;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO token_stats (organization_id, day, token_type, is_valid, n, days)
    SELECT organization_id, kidogo_day(created_at), token_type, is_valid, -count(*)::int, -sum(days_generated)
    FROM old_rows GROUP BY 1, 2, 3, 4;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO token_stats (organization_id, day, token_type, is_valid, n, days) VALUES
      (OLD.organization_id, kidogo_day(OLD.created_at), OLD.token_type, OLD.is_valid, -1, -OLD.days_generated),
      (NEW.organization_id, kidogo_day(NEW.created_at), NEW.token_type, NEW.is_valid, 1, NEW.days_generated);
  ELSE
    DELETE FROM token_stats;
  END IF;
  RETURN NULL;
END $$;
