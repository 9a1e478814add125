-- AlterTable
ALTER TABLE "items" ADD COLUMN     "location_id" INTEGER;

-- AlterTable
ALTER TABLE "item_stats" ADD COLUMN     "location_id" INTEGER;

-- CreateTable
CREATE TABLE "stock_locations" (
    "location_id" SERIAL NOT NULL,
    "organization_id" VARCHAR(64) NOT NULL,
    "name" VARCHAR(100) NOT NULL,
    "description" VARCHAR(300),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "stock_locations_pkey" PRIMARY KEY ("organization_id","location_id")
);

-- CreateTable
CREATE TABLE "stock_movements" (
    "movement_id" BIGSERIAL NOT NULL,
    "organization_id" VARCHAR(64) NOT NULL,
    "item_id" INTEGER NOT NULL,
    "from_location_id" INTEGER,
    "to_location_id" INTEGER,
    "from_name" VARCHAR(100),
    "to_name" VARCHAR(100),
    "moved_by" VARCHAR(100) NOT NULL,
    "note" VARCHAR(300),
    "moved_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "stock_movements_pkey" PRIMARY KEY ("movement_id")
);

-- CreateIndex
CREATE INDEX "stock_movements_organization_id_item_id_moved_at_idx" ON "stock_movements"("organization_id", "item_id", "moved_at" DESC);

-- CreateIndex
CREATE INDEX "stock_movements_organization_id_moved_at_idx" ON "stock_movements"("organization_id", "moved_at" DESC);

-- CreateIndex
CREATE INDEX "stock_movements_organization_id_to_location_id_moved_at_idx" ON "stock_movements"("organization_id", "to_location_id", "moved_at" DESC);

-- CreateIndex
CREATE INDEX "stock_movements_organization_id_from_location_id_moved_at_idx" ON "stock_movements"("organization_id", "from_location_id", "moved_at" DESC);

-- CreateIndex
CREATE INDEX "items_organization_id_location_id_created_at_item_id_idx" ON "items"("organization_id", "location_id", "created_at" DESC, "item_id" DESC);

-- AddForeignKey
ALTER TABLE "items" ADD CONSTRAINT "items_organization_id_location_id_fkey" FOREIGN KEY ("organization_id", "location_id") REFERENCES "stock_locations"("organization_id", "location_id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "stock_locations" ADD CONSTRAINT "stock_locations_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("organization_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "stock_movements" ADD CONSTRAINT "stock_movements_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("organization_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "stock_movements" ADD CONSTRAINT "stock_movements_organization_id_item_id_fkey" FOREIGN KEY ("organization_id", "item_id") REFERENCES "items"("organization_id", "item_id") ON DELETE CASCADE ON UPDATE CASCADE;


-- By hand ----------------------------------------------------------------------
-- A place's name is unique in the organization without regard to case.
CREATE UNIQUE INDEX "stock_locations_organization_id_name_key" ON "stock_locations"("organization_id", lower("name"));

-- The devices' totals by stock location too (Stock Locations' counts without a scan of the devices).
CREATE OR REPLACE FUNCTION kidogo_item_stats() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO item_stats (organization_id, is_assigned, status, product_name, location_id, n)
    SELECT organization_id, is_assigned, status, product_name, location_id, count(*)::int FROM new_rows GROUP BY 1, 2, 3, 4, 5;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO item_stats (organization_id, is_assigned, status, product_name, location_id, n)
    SELECT organization_id, is_assigned, status, product_name, location_id, -count(*)::int FROM old_rows GROUP BY 1, 2, 3, 4, 5;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO item_stats (organization_id, is_assigned, status, product_name, location_id, n) VALUES
      (OLD.organization_id, OLD.is_assigned, OLD.status, OLD.product_name, OLD.location_id, -1),
      (NEW.organization_id, NEW.is_assigned, NEW.status, NEW.product_name, NEW.location_id, 1);
  ELSE
    DELETE FROM item_stats;
  END IF;
  RETURN NULL;
END $$;

DROP TRIGGER item_stats_update ON items;
CREATE TRIGGER item_stats_update AFTER UPDATE OF organization_id, is_assigned, status, product_name, location_id ON items FOR EACH ROW
  WHEN (OLD.organization_id IS DISTINCT FROM NEW.organization_id OR OLD.is_assigned IS DISTINCT FROM NEW.is_assigned
        OR OLD.status IS DISTINCT FROM NEW.status OR OLD.product_name IS DISTINCT FROM NEW.product_name
        OR OLD.location_id IS DISTINCT FROM NEW.location_id)
  EXECUTE FUNCTION kidogo_item_stats();
