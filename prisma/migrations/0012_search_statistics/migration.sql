-- What Prisma's schema language cannot express; written by hand.

-- A partial-match search ('%term%') is estimated from the column's statistics
-- sample. With the default 100 histogram entries, a term matching one
-- customer in 600 (a common surname in an email, say) falls in no entry or
-- in one, so the estimate flips between a few dozen rows and thousands with
-- every ANALYZE, and so does the plan for its first page: fetch and sort
-- every match (8 ms on a million customers) or walk the newest-first index
-- until ten match (2 ms). A thousand entries estimate such a term within a
-- few percent (1,663 for 1,666 on the benchmark), so the plan follows the
-- data instead of the sample. ANALYZE reads 300,000 rows instead of 30,000.
ALTER TABLE "customers" ALTER COLUMN "customer_name" SET STATISTICS 1000;
ALTER TABLE "customers" ALTER COLUMN "phone_contact" SET STATISTICS 1000;
ALTER TABLE "customers" ALTER COLUMN "id_number" SET STATISTICS 1000;
ALTER TABLE "customers" ALTER COLUMN "email" SET STATISTICS 1000;
ALTER TABLE "customers" ALTER COLUMN "county" SET STATISTICS 1000;
ALTER TABLE "customers" ALTER COLUMN "constituency" SET STATISTICS 1000;
ALTER TABLE "customers" ALTER COLUMN "occupation" SET STATISTICS 1000;
