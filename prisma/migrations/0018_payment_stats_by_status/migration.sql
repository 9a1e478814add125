-- What Prisma's schema language cannot express (INCLUDE); written by hand.

-- The dashboard's revenue series and its summary for a period read the
-- payment totals of one organization's successful statuses, day by day.
-- Through (organization_id, day) that meant every status's rows and their
-- table pages (1,098 rows for a year on the benchmark, 366 of them kept):
-- 0.69 ms of PostgreSQL per revenue-by-day request. Ordered by status, then
-- day, and carrying the sums, the index alone answers, in day order:
-- 0.49 ms (1,029 -> 1,281 requests/s at concurrency 16; the summary for a
-- year 0.49 -> 0.30 ms, 1,682 -> 1,989/s). Each payment's delta row adds one
-- entry to it.
CREATE INDEX "payment_stats_by_status" ON "payment_stats" ("organization_id", "status", "day") INCLUDE ("n", "amount");
