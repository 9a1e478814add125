-- CreateTable
CREATE TABLE "customer_stats" (
    "id" BIGSERIAL NOT NULL,
    "organization_id" VARCHAR(64) NOT NULL,
    "day" DATE NOT NULL,
    "status" VARCHAR(20) NOT NULL,
    "n" INTEGER NOT NULL,

    CONSTRAINT "customer_stats_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "item_stats" (
    "id" BIGSERIAL NOT NULL,
    "organization_id" VARCHAR(64) NOT NULL,
    "is_assigned" BOOLEAN NOT NULL,
    "status" "ItemStatus" NOT NULL,
    "product_name" VARCHAR(200) NOT NULL,
    "n" INTEGER NOT NULL,

    CONSTRAINT "item_stats_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "payment_stats" (
    "id" BIGSERIAL NOT NULL,
    "organization_id" VARCHAR(64) NOT NULL,
    "day" DATE NOT NULL,
    "status" "PaymentStatus" NOT NULL,
    "n" INTEGER NOT NULL,
    "amount" DECIMAL(20,2) NOT NULL,

    CONSTRAINT "payment_stats_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "token_stats" (
    "id" BIGSERIAL NOT NULL,
    "organization_id" VARCHAR(64) NOT NULL,
    "day" DATE NOT NULL,
    "token_type" "TokenType" NOT NULL,
    "is_valid" BOOLEAN NOT NULL,
    "n" INTEGER NOT NULL,
    "days" DECIMAL(20,2) NOT NULL,

    CONSTRAINT "token_stats_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "list_counts" (
    "organization_id" VARCHAR(64) NOT NULL,
    "list" VARCHAR(40) NOT NULL,
    "key" VARCHAR(300) NOT NULL,
    "total" INTEGER NOT NULL,
    "counted_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "list_counts_pkey" PRIMARY KEY ("organization_id","list","key")
);

-- CreateIndex
CREATE INDEX "customer_stats_organization_id_day_idx" ON "customer_stats"("organization_id", "day");

-- CreateIndex
CREATE INDEX "item_stats_organization_id_idx" ON "item_stats"("organization_id");

-- CreateIndex
CREATE INDEX "payment_stats_organization_id_day_idx" ON "payment_stats"("organization_id", "day");

-- CreateIndex
CREATE INDEX "token_stats_organization_id_day_idx" ON "token_stats"("organization_id", "day");

-- AddForeignKey
ALTER TABLE "customer_stats" ADD CONSTRAINT "customer_stats_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("organization_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "item_stats" ADD CONSTRAINT "item_stats_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("organization_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "payment_stats" ADD CONSTRAINT "payment_stats_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("organization_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "token_stats" ADD CONSTRAINT "token_stats_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("organization_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "list_counts" ADD CONSTRAINT "list_counts_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("organization_id") ON DELETE CASCADE ON UPDATE CASCADE;

