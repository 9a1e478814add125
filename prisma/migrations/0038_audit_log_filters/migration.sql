-- The Activity Log page (GET /payg/audit-log): an organization's entries
-- newest first, a page at a time from the last one's (created_at, id), by
-- kind of action, by user and by dates.

-- The page order, with its tie-breaker, so a page after the cursor is one
-- index range however many entries share a millisecond.
DROP INDEX "audit_logs_organization_id_created_at_idx";
CREATE INDEX "audit_logs_organization_id_created_at_id_idx" ON "audit_logs"("organization_id", "created_at" DESC, "id" DESC);

-- By kind (the action's prefix, AUDIT_CATEGORIES in the contracts). The
-- tokens issued for payments, most of the table, are left out: their kind is
-- read in the order above, where they are most of what is walked, and the
-- payment pipeline writes none of its entries into these two indexes.
CREATE INDEX "audit_logs_category" ON "audit_logs"("organization_id", split_part("action", '.', 1), "created_at" DESC, "id" DESC)
  WHERE "action" <> 'token.generate';

-- By user: the system's own entries (received payments, sweeps) have none.
CREATE INDEX "audit_logs_by_actor" ON "audit_logs"("organization_id", "actor_username", "created_at" DESC, "id" DESC)
  WHERE "actor_username" IS NOT NULL;
