-- Promises to pay counted per promised day (GET /collections/promises and its
-- summary): counting a large team's promises read every promise of the
-- list's 90-day window on each request (31,700 index entries, 8-9.5 ms of
-- PostgreSQL: about 200 requests a second on two cores). These totals make
-- it a few rows a day of the window, whatever the number of promises.
--
-- Kept like the other totals (0006_stats_triggers): every change adds delta
-- rows in the writer's own transaction, never updates a shared row (payments
-- marking promises paid at once do not queue on a lock), and the compaction
-- (StatsService) folds them. The promises counted are the list's: outcome
-- promised_to_pay, not superseded, with a promised day. Their kind:
--   unpaid: no payment since the promise was logged (due, upcoming or
--     broken, which the reader tells from the day against today);
--   kept: paid by the end of the promised business day (kidogo_day);
--   late: paid after it.
-- TIME_ZONE changes the business day, and installBusinessDay rebuilds these
-- with the other daily totals.

-- CreateTable
CREATE TABLE "promise_stats" (
    "id" BIGSERIAL NOT NULL,
    "organization_id" VARCHAR(64) NOT NULL,
    "promised_on" DATE NOT NULL,
    "kind" VARCHAR(10) NOT NULL,
    "n" INTEGER NOT NULL,

    CONSTRAINT "promise_stats_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "promise_stats_organization_id_promised_on_idx" ON "promise_stats"("organization_id", "promised_on");

-- AddForeignKey
ALTER TABLE "promise_stats" ADD CONSTRAINT "promise_stats_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("organization_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- A contact's kind as a counted promise, null when it is not one.
CREATE FUNCTION kidogo_promise_kind(outcome "ContactOutcome", superseded boolean, promised_on date, paid_at timestamptz)
RETURNS text LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN outcome <> 'promised_to_pay' OR superseded OR promised_on IS NULL THEN NULL
              WHEN paid_at IS NULL THEN 'unpaid'
              WHEN kidogo_day(paid_at) <= promised_on THEN 'kept'
              ELSE 'late' END
$$;

CREATE FUNCTION kidogo_promise_stats() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  was text;
  now_is text;
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO promise_stats (organization_id, promised_on, kind, n)
    SELECT organization_id, promised_on, k, count(*)::int
    FROM (SELECT organization_id, promised_on, kidogo_promise_kind(outcome, superseded, promised_on, paid_at) AS k FROM new_rows) r
    WHERE k IS NOT NULL GROUP BY 1, 2, 3;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO promise_stats (organization_id, promised_on, kind, n)
    SELECT organization_id, promised_on, k, -count(*)::int
    FROM (SELECT organization_id, promised_on, kidogo_promise_kind(outcome, superseded, promised_on, paid_at) AS k FROM old_rows) r
    WHERE k IS NOT NULL GROUP BY 1, 2, 3;
  ELSIF TG_OP = 'UPDATE' THEN
    was := kidogo_promise_kind(OLD.outcome, OLD.superseded, OLD.promised_on, OLD.paid_at);
    now_is := kidogo_promise_kind(NEW.outcome, NEW.superseded, NEW.promised_on, NEW.paid_at);
    IF (OLD.organization_id, OLD.promised_on, was) IS NOT DISTINCT FROM (NEW.organization_id, NEW.promised_on, now_is) THEN
      RETURN NULL;
    END IF;
    IF was IS NOT NULL THEN
      INSERT INTO promise_stats (organization_id, promised_on, kind, n) VALUES (OLD.organization_id, OLD.promised_on, was, -1);
    END IF;
    IF now_is IS NOT NULL THEN
      INSERT INTO promise_stats (organization_id, promised_on, kind, n) VALUES (NEW.organization_id, NEW.promised_on, now_is, 1);
    END IF;
  ELSE
    DELETE FROM promise_stats;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER promise_stats_insert AFTER INSERT ON collection_contacts REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION kidogo_promise_stats();
CREATE TRIGGER promise_stats_delete AFTER DELETE ON collection_contacts REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION kidogo_promise_stats();
-- Only when what the kind is made of changed, and then only when the kind or its day did.
CREATE TRIGGER promise_stats_update AFTER UPDATE OF organization_id, outcome, superseded, promised_on, paid_at ON collection_contacts FOR EACH ROW
  WHEN ((OLD.organization_id, OLD.outcome, OLD.superseded, OLD.promised_on, OLD.paid_at)
        IS DISTINCT FROM (NEW.organization_id, NEW.outcome, NEW.superseded, NEW.promised_on, NEW.paid_at))
  EXECUTE FUNCTION kidogo_promise_stats();
CREATE TRIGGER promise_stats_truncate AFTER TRUNCATE ON collection_contacts
  FOR EACH STATEMENT EXECUTE FUNCTION kidogo_promise_stats();

INSERT INTO promise_stats (organization_id, promised_on, kind, n)
SELECT organization_id, promised_on, k, count(*)::int
FROM (SELECT organization_id, promised_on, kidogo_promise_kind(outcome, superseded, promised_on, paid_at) AS k FROM collection_contacts) r
WHERE k IS NOT NULL GROUP BY 1, 2, 3;
