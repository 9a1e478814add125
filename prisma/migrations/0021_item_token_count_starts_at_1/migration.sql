-- AlterTable
ALTER TABLE "items" ALTER COLUMN "token_count" SET DEFAULT 1;


-- OpenPAYGO devices leave the factory having used count 1 (the reference's
-- starting_count): a first unlock, set-time or counter-sync token at count 1
-- would be refused as already used. Devices recorded before this default keep
-- count 0 in the table; the token generator reads any count below 1 as 1
-- (tokens.service.ts), so they need no rewrite here.
