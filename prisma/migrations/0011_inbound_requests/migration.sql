-- Gateway requests stored raw before they are processed (see InboundRequest in
-- schema.prisma): one insert with only its primary key to maintain, where the
-- message row and its indexes used to be written twice per payment.

-- CreateTable
CREATE TABLE "inbound_requests" (
    "message_id" INTEGER NOT NULL,
    "organization_id" VARCHAR(64) NOT NULL,
    "raw_payload" JSONB NOT NULL,
    "received_message" TEXT,
    "sender" VARCHAR(100),
    "received_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "inbound_requests_pkey" PRIMARY KEY ("organization_id","message_id")
);

-- AddForeignKey
ALTER TABLE "inbound_requests" ADD CONSTRAINT "inbound_requests_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("organization_id") ON DELETE CASCADE ON UPDATE CASCADE;
