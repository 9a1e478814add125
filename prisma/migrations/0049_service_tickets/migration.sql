-- Service tickets (GET/POST /payg/tickets, PATCH /payg/tickets/{id}):
-- after-sales work on a device, from the customer's report to what was done,
-- with who it is assigned to. The customer is the one who had the device when
-- the ticket was opened.
CREATE TYPE "TicketCategory" AS ENUM ('device_fault', 'installation', 'token_problem', 'billing', 'other');
CREATE TYPE "TicketStatus" AS ENUM ('open', 'in_progress', 'resolved');

CREATE TABLE "service_tickets" (
    "ticket_id" SERIAL NOT NULL,
    "organization_id" VARCHAR(64) NOT NULL,
    "item_id" INTEGER NOT NULL,
    "customer_id" INTEGER,
    "category" "TicketCategory" NOT NULL,
    "status" "TicketStatus" NOT NULL DEFAULT 'open',
    "description" VARCHAR(1000) NOT NULL,
    "resolution" VARCHAR(1000),
    "assigned_to" INTEGER,
    "opened_by" INTEGER,
    "opened_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "resolved_at" TIMESTAMPTZ(3),
    "compensation_days" INTEGER,

    CONSTRAINT "service_tickets_pkey" PRIMARY KEY ("organization_id","ticket_id")
);

-- The list: one status (or all), newest first; a device's tickets.
CREATE INDEX "service_tickets_organization_id_status_ticket_id_idx" ON "service_tickets"("organization_id", "status", "ticket_id" DESC);
CREATE INDEX "service_tickets_organization_id_item_id_ticket_id_idx" ON "service_tickets"("organization_id", "item_id", "ticket_id" DESC);
-- A user's own (users are of one organization) newest first, and what a user's deletion unassigns.
CREATE INDEX "service_tickets_assigned_to_status_ticket_id_idx" ON "service_tickets"("assigned_to", "status", "ticket_id" DESC);
-- The default list (open and in progress), newest first, without reading past the resolved history.
CREATE INDEX "service_tickets_active" ON "service_tickets"("organization_id", "ticket_id" DESC) WHERE "status" <> 'resolved';
CREATE INDEX "service_tickets_organization_id_customer_id_idx" ON "service_tickets"("organization_id", "customer_id");
CREATE INDEX "service_tickets_opened_by_idx" ON "service_tickets"("opened_by");

ALTER TABLE "service_tickets" ADD CONSTRAINT "service_tickets_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("organization_id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "service_tickets" ADD CONSTRAINT "service_tickets_organization_id_item_id_fkey" FOREIGN KEY ("organization_id", "item_id") REFERENCES "items"("organization_id", "item_id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "service_tickets" ADD CONSTRAINT "service_tickets_organization_id_customer_id_fkey" FOREIGN KEY ("organization_id", "customer_id") REFERENCES "customers"("organization_id", "customer_id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "service_tickets" ADD CONSTRAINT "service_tickets_assigned_to_fkey" FOREIGN KEY ("assigned_to") REFERENCES "users"("user_id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "service_tickets" ADD CONSTRAINT "service_tickets_opened_by_fkey" FOREIGN KEY ("opened_by") REFERENCES "users"("user_id") ON DELETE SET NULL ON UPDATE CASCADE;

-- The organization's tickets by status, kept by a trigger: the tabs' counts and
-- the list's total without counting a resolved history of 100,000 tickets on
-- every page (28 ms measured) — one row of each status.
CREATE TABLE "ticket_counts" (
    "organization_id" VARCHAR(64) NOT NULL,
    "status" "TicketStatus" NOT NULL,
    "n" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "ticket_counts_pkey" PRIMARY KEY ("organization_id","status")
);
ALTER TABLE "ticket_counts" ADD CONSTRAINT "ticket_counts_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("organization_id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE FUNCTION "service_tickets_count"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.status = NEW.status AND OLD.organization_id = NEW.organization_id THEN
    RETURN NULL;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE "ticket_counts" SET "n" = "n" - 1 WHERE "organization_id" = OLD.organization_id AND "status" = OLD.status;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO "ticket_counts" ("organization_id", "status", "n") VALUES (NEW.organization_id, NEW.status, 1)
    ON CONFLICT ("organization_id", "status") DO UPDATE SET "n" = "ticket_counts"."n" + 1;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER "service_tickets_count" AFTER INSERT OR DELETE OR UPDATE OF "status", "organization_id" ON "service_tickets"
  FOR EACH ROW EXECUTE FUNCTION "service_tickets_count"();

-- A ticket's history (GET /payg/tickets/{id}/history): its activity log entries, oldest first, without reading
-- the organization's millions of other entries.
CREATE INDEX "audit_logs_ticket_entries" ON "audit_logs"("organization_id", "entity_id", "id") WHERE "entity_type" = 'ticket';

-- The Service Ticket report: the tickets opened in a period, newest first, read in keyset batches.
CREATE INDEX "service_tickets_organization_id_opened_at_ticket_id_idx" ON "service_tickets"("organization_id", "opened_at" DESC, "ticket_id" DESC);
