-- A kept search total can also keep where every n-th match lies in the
-- list's order (the created_at and id of matches n, 2n, ...; n at least 10,
-- and at most 2,000 places), so that a deep page of a search starts from the
-- nearest of them instead of skipping every match before it (offset 50,000
-- of "Teacher", 100,000 matches of a million customers, took 0.3-0.4 s).
-- See searchPage.
ALTER TABLE "list_counts" ADD COLUMN     "anchor_ids" INTEGER[],
ADD COLUMN     "anchor_step" INTEGER,
ADD COLUMN     "anchor_times" TIMESTAMPTZ(3)[],
ADD COLUMN     "anchored_at" TIMESTAMPTZ(3);
