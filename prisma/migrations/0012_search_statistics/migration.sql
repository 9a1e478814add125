-- What Prisma's schema language cannot express; written by hand.

-- A partial-match search ('%term%') is estimated from the column's statistics
-- sample. With the default 100 histogram entries, a term matching one
-- customer in 600 (a name in an email address, say) falls in no entry or in
-- one, so the estimate flips between a few dozen rows and thousands with every
-- ANALYZE, and so does the plan for its first page: fetch and sort every match
-- (8 ms of PostgreSQL on a million customers) or walk the newest-first index
-- until ten match (2-3 ms). A thousand entries estimate such a term within a
-- few percent (1,663 for 1,666 on the benchmark), so the plan follows the data
-- instead of the sample.
--
-- Only the email column: planning a pattern reads every entry, and measured
-- on the other searched columns, where the plan did not flip, a thousand
-- entries only added planning time (the customer-name search went from 0.6 to
-- 1.0 ms of PostgreSQL per request).
ALTER TABLE "customers" ALTER COLUMN "email" SET STATISTICS 1000;
