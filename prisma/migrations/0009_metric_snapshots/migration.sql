-- CreateTable
CREATE TABLE "metric_snapshots" (
    "organization_id" VARCHAR(64) NOT NULL,
    "key" VARCHAR(100) NOT NULL,
    "value" JSONB NOT NULL,
    "computed_at" TIMESTAMPTZ(3) NOT NULL,
    "took_ms" INTEGER NOT NULL,
    "refreshing_at" TIMESTAMPTZ(3),

    CONSTRAINT "metric_snapshots_pkey" PRIMARY KEY ("organization_id","key")
);

-- AddForeignKey
ALTER TABLE "metric_snapshots" ADD CONSTRAINT "metric_snapshots_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("organization_id") ON DELETE CASCADE ON UPDATE CASCADE;

