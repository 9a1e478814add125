-- Written by hand: an index Prisma's schema language cannot express.

-- The Product Management search (GET /payg/products?search=) matches serial
-- number, product name, manufacturer and OEM. With a trigram index on each of
-- the four, PostgreSQL combines them (BitmapOr); with one column unindexed it
-- scans every device of the organization: 0.9 s for a serial number among
-- 300,000 devices, 15 ms with this index. GET /payg/items?product_oem= uses it
-- too (a case-insensitive match).
CREATE INDEX "items_product_oem_trgm" ON "items" USING gin ("product_oem" gin_trgm_ops);
