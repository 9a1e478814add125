-- What Prisma's schema language cannot express; written by hand.

-- Every payment and every token updates its device's balances, count and
-- credit date, none of them indexed. With room left on each page, PostgreSQL
-- writes the new version of the row next to the old one without touching
-- the device's twelve indexes (a "HOT" update), instead of adding an entry to
-- each of them, four of them trigram indexes. Rows already on full pages get
-- that room the first time they move.
ALTER TABLE "items" SET (fillfactor = 85);
