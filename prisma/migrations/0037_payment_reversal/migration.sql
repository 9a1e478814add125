-- When a payment was applied to its device. A payment held for staff is
-- applied when it is matched, long after it was received (created_at), so
-- neither its id nor its times give the order in which a device's account
-- took its payments; reversing a payment needs that order (only the latest
-- one can be undone). Payments applied before this migration keep NULL and
-- are ordered by created_at. Added without a default first, so that the
-- existing rows are not rewritten and do not all get this moment.
ALTER TABLE "payments" ADD COLUMN "applied_at" TIMESTAMPTZ(3);
ALTER TABLE "payments" ALTER COLUMN "applied_at" SET DEFAULT CURRENT_TIMESTAMP;
