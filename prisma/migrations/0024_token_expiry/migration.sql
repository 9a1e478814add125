-- Tokens a device no longer takes are expired (is_valid false), as OpenPAYGO
-- Token decides on the device (tokens/token-device.ts, stillTaken): once a
-- newer token is entered, an ADD_TIME token is taken only if unused within
-- the 16 counts below the newest, and a SET_TIME, DISABLE_PAYG or
-- COUNTER_SYNC token closes every older count. Tokens issued from now on
-- expire the older ones as they are written; this marks the tokens issued
-- before. A device's newest count is its highest token's count, or its own
-- count when that was set higher by hand.
--
-- The per-row trigger that keeps token_stats is held off for this one
-- statement (a large history would fire it once per token) and the totals
-- are moved in one insert per day, type and validity instead.
ALTER TABLE "token_logs" DISABLE TRIGGER "token_stats_update";

WITH horizon AS (
  SELECT t.organization_id, t.item_id,
         greatest(max(t.token_count), max(i.token_count)) AS top,
         max(t.token_count) FILTER (WHERE t.token_type NOT IN ('add_time', 'activation')) AS barrier
  FROM token_logs t
  JOIN items i ON i.organization_id = t.organization_id AND i.item_id = t.item_id
  GROUP BY t.organization_id, t.item_id
),
expired AS (
  UPDATE token_logs t SET is_valid = false
  FROM horizon h
  WHERE t.organization_id = h.organization_id AND t.item_id = h.item_id AND t.is_valid
    AND (t.token_count <= h.top - 16
         OR t.token_count < h.barrier
         OR (t.token_type NOT IN ('add_time', 'activation') AND t.token_count < h.top))
  RETURNING t.organization_id, t.created_at, t.token_type, t.days_generated
)
INSERT INTO token_stats (organization_id, day, token_type, is_valid, n, days)
SELECT e.organization_id, kidogo_day(e.created_at), e.token_type, v.is_valid,
       CASE WHEN v.is_valid THEN -count(*) ELSE count(*) END::int,
       CASE WHEN v.is_valid THEN -sum(e.days_generated) ELSE sum(e.days_generated) END
FROM expired e CROSS JOIN (VALUES (true), (false)) AS v(is_valid)
GROUP BY e.organization_id, kidogo_day(e.created_at), e.token_type, v.is_valid;

ALTER TABLE "token_logs" ENABLE TRIGGER "token_stats_update";
