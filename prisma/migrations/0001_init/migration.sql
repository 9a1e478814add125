-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateEnum
CREATE TYPE "AppType" AS ENUM ('kidogo', 'amped', 'generic_oem');

-- CreateEnum
CREATE TYPE "OrgStatus" AS ENUM ('active', 'suspended', 'disabled');

-- CreateEnum
CREATE TYPE "UserRole" AS ENUM ('super_admin', 'owner', 'admin', 'staff');

-- CreateEnum
CREATE TYPE "ItemStatus" AS ENUM ('available', 'assigned', 'maintenance', 'retired');

-- CreateEnum
CREATE TYPE "PaymentStatus" AS ENUM ('success', 'completed', 'pending', 'failed');

-- CreateEnum
CREATE TYPE "TokenType" AS ENUM ('add_time', 'set_time', 'activation', 'unlock', 'counter_sync');

-- CreateEnum
CREATE TYPE "MessageStatus" AS ENUM ('received', 'processed', 'duplicate', 'unmatched', 'unparsed');

-- CreateEnum
CREATE TYPE "DeliveryStatus" AS ENUM ('none', 'queued', 'sending', 'sent', 'failed');

-- CreateEnum
CREATE TYPE "InvoiceStatus" AS ENUM ('pending', 'sent', 'paid', 'overdue', 'draft', 'cancelled');

-- CreateTable
CREATE TABLE "organizations" (
    "organization_id" VARCHAR(64) NOT NULL,
    "external_key" VARCHAR(128),
    "name" VARCHAR(200),
    "app" "AppType" NOT NULL DEFAULT 'kidogo',
    "status" "OrgStatus" NOT NULL DEFAULT 'active',
    "disabled_reason" TEXT,
    "status_changed_at" TIMESTAMPTZ(3),
    "api_key_hash" VARCHAR(64),
    "api_key_enc" TEXT,
    "last_activity_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "organizations_pkey" PRIMARY KEY ("organization_id")
);

-- CreateTable
CREATE TABLE "users" (
    "user_id" SERIAL NOT NULL,
    "username" VARCHAR(100) NOT NULL,
    "email" VARCHAR(254),
    "password_hash" TEXT NOT NULL,
    "role" "UserRole" NOT NULL DEFAULT 'staff',
    "organization_id" VARCHAR(64) NOT NULL,
    "is_active" BOOLEAN NOT NULL DEFAULT true,
    "last_login_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "users_pkey" PRIMARY KEY ("user_id")
);

-- CreateTable
CREATE TABLE "refresh_tokens" (
    "id" UUID NOT NULL,
    "user_id" INTEGER NOT NULL,
    "token_hash" VARCHAR(64) NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "revoked_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "refresh_tokens_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "auth_throttles" (
    "key" VARCHAR(200) NOT NULL,
    "failures" INTEGER NOT NULL DEFAULT 0,
    "first_failure_at" TIMESTAMPTZ(3) NOT NULL,
    "locked_until" TIMESTAMPTZ(3),

    CONSTRAINT "auth_throttles_pkey" PRIMARY KEY ("key")
);

-- CreateTable
CREATE TABLE "plans" (
    "plan_code" VARCHAR(64) NOT NULL,
    "name" VARCHAR(200),
    "description" TEXT,
    "price" DECIMAL(14,2),
    "currency" VARCHAR(3) NOT NULL DEFAULT 'USD',
    "features" JSONB NOT NULL DEFAULT '[]',
    "quotas" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "plans_pkey" PRIMARY KEY ("plan_code")
);

-- CreateTable
CREATE TABLE "org_plans" (
    "organization_id" VARCHAR(64) NOT NULL,
    "plan_code" VARCHAR(64) NOT NULL,
    "assigned_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "org_plans_pkey" PRIMARY KEY ("organization_id")
);

-- CreateTable
CREATE TABLE "feature_flags" (
    "id" SERIAL NOT NULL,
    "feature_key" VARCHAR(100) NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT false,
    "organization_id" VARCHAR(64),
    "description" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "feature_flags_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "invoice_settings" (
    "id" SERIAL NOT NULL,
    "organization_id" VARCHAR(64),
    "default_tax_rate" DECIMAL(5,2) NOT NULL DEFAULT 0,
    "default_currency" VARCHAR(3) NOT NULL DEFAULT 'USD',
    "invoice_prefix" VARCHAR(20) NOT NULL DEFAULT 'INV',
    "template_html" TEXT,
    "default_payment_terms" INTEGER NOT NULL DEFAULT 30,
    "issuer_name" VARCHAR(200),
    "issuer_details" TEXT,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "invoice_settings_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "invoices" (
    "id" UUID NOT NULL,
    "organization_id" VARCHAR(64) NOT NULL,
    "invoice_number" VARCHAR(40) NOT NULL,
    "customer_name" VARCHAR(200),
    "customer_email" VARCHAR(254),
    "customer_phone" VARCHAR(40),
    "description" TEXT,
    "line_items" JSONB NOT NULL DEFAULT '[]',
    "subtotal" DECIMAL(14,2) NOT NULL,
    "tax_rate" DECIMAL(5,2) NOT NULL DEFAULT 0,
    "tax_amount" DECIMAL(14,2) NOT NULL DEFAULT 0,
    "amount" DECIMAL(14,2) NOT NULL,
    "currency" VARCHAR(3) NOT NULL DEFAULT 'USD',
    "status" "InvoiceStatus" NOT NULL DEFAULT 'pending',
    "due_date" DATE,
    "paid_at" TIMESTAMPTZ(3),
    "payment_reference" VARCHAR(200),
    "payment_tx_hash" VARCHAR(200),
    "payment_submitted_at" TIMESTAMPTZ(3),
    "created_by" VARCHAR(100),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "invoices_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "audit_logs" (
    "id" SERIAL NOT NULL,
    "organization_id" VARCHAR(64),
    "actor_user_id" INTEGER,
    "actor_username" VARCHAR(100),
    "action" VARCHAR(80) NOT NULL,
    "entity_type" VARCHAR(40),
    "entity_id" VARCHAR(100),
    "description" TEXT NOT NULL,
    "metadata" JSONB,
    "ip" VARCHAR(64),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "audit_logs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "notifications" (
    "id" SERIAL NOT NULL,
    "organization_id" VARCHAR(64) NOT NULL,
    "message" TEXT NOT NULL,
    "level" VARCHAR(20) NOT NULL DEFAULT 'info',
    "created_by" VARCHAR(100),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "notifications_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "customers" (
    "customer_id" SERIAL NOT NULL,
    "organization_id" VARCHAR(64) NOT NULL,
    "customer_name" VARCHAR(200) NOT NULL,
    "id_number" VARCHAR(50) NOT NULL,
    "phone_contact" VARCHAR(30) NOT NULL,
    "phone_normalized" VARCHAR(20),
    "email" VARCHAR(254),
    "country" VARCHAR(100),
    "gender" VARCHAR(10),
    "date_of_birth" DATE,
    "marital_status" VARCHAR(20),
    "county" VARCHAR(100),
    "constituency" VARCHAR(100),
    "ward" VARCHAR(100),
    "sub_location" VARCHAR(100),
    "village" VARCHAR(100),
    "postal_address" VARCHAR(200),
    "occupation" VARCHAR(100),
    "employer_name" VARCHAR(200),
    "education_level" VARCHAR(40),
    "preferred_language" VARCHAR(20) NOT NULL DEFAULT 'English',
    "customer_type" VARCHAR(20) NOT NULL DEFAULT 'individual',
    "agent_id" VARCHAR(64),
    "status" VARCHAR(20) NOT NULL DEFAULT 'active',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "customers_pkey" PRIMARY KEY ("organization_id","customer_id")
);

-- CreateTable
CREATE TABLE "items" (
    "item_id" SERIAL NOT NULL,
    "organization_id" VARCHAR(64) NOT NULL,
    "serial_number" VARCHAR(100) NOT NULL,
    "serial_normalized" VARCHAR(100) NOT NULL,
    "product_name" VARCHAR(200) NOT NULL,
    "product_type" VARCHAR(100),
    "manufacturer" VARCHAR(200),
    "model" VARCHAR(200),
    "description" TEXT,
    "price" DECIMAL(14,2) NOT NULL DEFAULT 0,
    "status" "ItemStatus" NOT NULL DEFAULT 'available',
    "product_oem" VARCHAR(100),
    "is_assigned" BOOLEAN NOT NULL DEFAULT false,
    "customer_id" INTEGER,
    "assigned_at" TIMESTAMPTZ(3),
    "secret_key_enc" TEXT NOT NULL,
    "starting_code_enc" TEXT NOT NULL,
    "token_count" INTEGER NOT NULL DEFAULT 0,
    "credit" DECIMAL(14,2) NOT NULL DEFAULT 0,
    "total_paid" DECIMAL(14,2) NOT NULL DEFAULT 0,
    "activated_at" TIMESTAMPTZ(3),
    "paid_off_at" TIMESTAMPTZ(3),
    "credit_until" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "items_pkey" PRIMARY KEY ("organization_id","item_id")
);

-- CreateTable
CREATE TABLE "payment_templates" (
    "template_id" SERIAL NOT NULL,
    "organization_id" VARCHAR(64) NOT NULL,
    "template_name" VARCHAR(200) NOT NULL,
    "description" TEXT,
    "deposit_made" DECIMAL(14,2) NOT NULL DEFAULT 0,
    "daily_price" DECIMAL(14,2) NOT NULL,
    "activation_price" DECIMAL(14,2) NOT NULL DEFAULT 0,
    "grace_period_days" INTEGER NOT NULL DEFAULT 0,
    "currency" VARCHAR(3) NOT NULL DEFAULT 'KES',
    "payment_method" VARCHAR(50),
    "frequency" VARCHAR(50),
    "free_code_price" DECIMAL(14,2),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "payment_templates_pkey" PRIMARY KEY ("organization_id","template_id")
);

-- CreateTable
CREATE TABLE "template_assignments" (
    "assignment_id" SERIAL NOT NULL,
    "organization_id" VARCHAR(64) NOT NULL,
    "customer_id" INTEGER NOT NULL,
    "template_id" INTEGER NOT NULL,
    "start_date" DATE,
    "end_date" DATE,
    "notes" TEXT,
    "is_active" BOOLEAN NOT NULL DEFAULT true,
    "assigned_by" VARCHAR(100),
    "assigned_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "ended_at" TIMESTAMPTZ(3),

    CONSTRAINT "template_assignments_pkey" PRIMARY KEY ("organization_id","assignment_id")
);

-- CreateTable
CREATE TABLE "item_assignments" (
    "assignment_id" SERIAL NOT NULL,
    "organization_id" VARCHAR(64) NOT NULL,
    "item_id" INTEGER NOT NULL,
    "customer_id" INTEGER NOT NULL,
    "assigned_by" VARCHAR(100),
    "assigned_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "unassigned_at" TIMESTAMPTZ(3),

    CONSTRAINT "item_assignments_pkey" PRIMARY KEY ("organization_id","assignment_id")
);

-- CreateTable
CREATE TABLE "payments" (
    "payment_id" SERIAL NOT NULL,
    "organization_id" VARCHAR(64) NOT NULL,
    "customer_id" INTEGER,
    "item_id" INTEGER,
    "amount" DECIMAL(14,2) NOT NULL,
    "currency" VARCHAR(3) NOT NULL DEFAULT 'KES',
    "payment_method" VARCHAR(30) NOT NULL DEFAULT 'mobile_money',
    "status" "PaymentStatus" NOT NULL DEFAULT 'completed',
    "transaction_code" VARCHAR(64),
    "reference" VARCHAR(200),
    "account_reference" VARCHAR(100),
    "payer_phone" VARCHAR(30),
    "payer_name" VARCHAR(200),
    "source" VARCHAR(20) NOT NULL DEFAULT 'manual',
    "days_bought" INTEGER NOT NULL DEFAULT 0,
    "credit_after" DECIMAL(14,2),
    "message_id" INTEGER,
    "recorded_by" VARCHAR(100),
    "paid_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "payments_pkey" PRIMARY KEY ("organization_id","payment_id")
);

-- CreateTable
CREATE TABLE "token_logs" (
    "token_log_id" SERIAL NOT NULL,
    "organization_id" VARCHAR(64) NOT NULL,
    "item_id" INTEGER NOT NULL,
    "serial_number" VARCHAR(100) NOT NULL,
    "customer_id" INTEGER,
    "customer_name" VARCHAR(200),
    "payment_id" INTEGER,
    "token_value" VARCHAR(32) NOT NULL,
    "token_type" "TokenType" NOT NULL,
    "token_count" INTEGER NOT NULL,
    "value" INTEGER NOT NULL,
    "days_generated" DECIMAL(10,2) NOT NULL DEFAULT 0,
    "amount_paid" DECIMAL(14,2),
    "status" VARCHAR(20) NOT NULL DEFAULT 'success',
    "is_valid" BOOLEAN NOT NULL DEFAULT true,
    "was_assigned" BOOLEAN NOT NULL DEFAULT false,
    "generated_by" VARCHAR(100),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "token_logs_pkey" PRIMARY KEY ("organization_id","token_log_id")
);

-- CreateTable
CREATE TABLE "messages" (
    "message_id" SERIAL NOT NULL,
    "organization_id" VARCHAR(64) NOT NULL,
    "received_message" TEXT,
    "raw_payload" JSONB,
    "sender" VARCHAR(100),
    "status" "MessageStatus" NOT NULL DEFAULT 'received',
    "parse_error" TEXT,
    "transaction_code" VARCHAR(64),
    "amount" DECIMAL(14,2),
    "payment_id" INTEGER,
    "item_id" INTEGER,
    "result" JSONB,
    "forwarded_message" TEXT,
    "recipient_number" VARCHAR(30),
    "delivery_status" "DeliveryStatus" NOT NULL DEFAULT 'none',
    "delivery_attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3),
    "last_delivery_error" TEXT,
    "provider_message_id" VARCHAR(200),
    "sent_at" TIMESTAMPTZ(3),
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "messages_pkey" PRIMARY KEY ("organization_id","message_id")
);

-- CreateTable
CREATE TABLE "payment_providers" (
    "id" SERIAL NOT NULL,
    "organization_id" VARCHAR(64) NOT NULL,
    "provider" VARCHAR(50) NOT NULL,
    "config_enc" TEXT NOT NULL,
    "is_active" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "payment_providers_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "oem_credentials" (
    "id" SERIAL NOT NULL,
    "organization_id" VARCHAR(64) NOT NULL,
    "oem_name" VARCHAR(100) NOT NULL,
    "credentials_enc" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "oem_credentials_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "product_oem_configs" (
    "organization_id" VARCHAR(64) NOT NULL,
    "product_oem" VARCHAR(100) NOT NULL,
    "restricted_digit_set" BOOLEAN NOT NULL DEFAULT false,
    "extended_token" BOOLEAN NOT NULL DEFAULT false,
    "value_divider" DECIMAL(10,4) NOT NULL DEFAULT 1,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "product_oem_configs_pkey" PRIMARY KEY ("organization_id","product_oem")
);

-- CreateTable
CREATE TABLE "config_entries" (
    "config_id" SERIAL NOT NULL,
    "organization_id" VARCHAR(64) NOT NULL,
    "key" VARCHAR(100) NOT NULL,
    "value" JSONB NOT NULL,
    "description" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "config_entries_pkey" PRIMARY KEY ("organization_id","config_id")
);

-- CreateTable
CREATE TABLE "import_jobs" (
    "id" UUID NOT NULL,
    "organization_id" VARCHAR(64) NOT NULL,
    "kind" VARCHAR(30) NOT NULL,
    "filename" VARCHAR(255),
    "status" VARCHAR(20) NOT NULL DEFAULT 'running',
    "imported" INTEGER NOT NULL DEFAULT 0,
    "skipped" INTEGER NOT NULL DEFAULT 0,
    "errors" JSONB NOT NULL DEFAULT '[]',
    "created_by" VARCHAR(100),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "import_jobs_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "organizations_external_key_key" ON "organizations"("external_key");

-- CreateIndex
CREATE UNIQUE INDEX "organizations_api_key_hash_key" ON "organizations"("api_key_hash");

-- CreateIndex
CREATE UNIQUE INDEX "users_username_key" ON "users"("username");

-- CreateIndex
CREATE INDEX "users_organization_id_idx" ON "users"("organization_id");

-- CreateIndex
CREATE UNIQUE INDEX "refresh_tokens_token_hash_key" ON "refresh_tokens"("token_hash");

-- CreateIndex
CREATE INDEX "refresh_tokens_user_id_idx" ON "refresh_tokens"("user_id");

-- CreateIndex
CREATE INDEX "org_plans_plan_code_idx" ON "org_plans"("plan_code");

-- CreateIndex
CREATE INDEX "feature_flags_organization_id_idx" ON "feature_flags"("organization_id");

-- CreateIndex
CREATE UNIQUE INDEX "feature_flags_feature_key_organization_id_key" ON "feature_flags"("feature_key", "organization_id");

-- CreateIndex
CREATE UNIQUE INDEX "invoice_settings_organization_id_key" ON "invoice_settings"("organization_id");

-- CreateIndex
CREATE UNIQUE INDEX "invoices_invoice_number_key" ON "invoices"("invoice_number");

-- CreateIndex
CREATE INDEX "invoices_organization_id_created_at_idx" ON "invoices"("organization_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "invoices_status_idx" ON "invoices"("status");

-- CreateIndex
CREATE INDEX "audit_logs_organization_id_created_at_idx" ON "audit_logs"("organization_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "audit_logs_created_at_idx" ON "audit_logs"("created_at" DESC);

-- CreateIndex
CREATE INDEX "notifications_organization_id_created_at_idx" ON "notifications"("organization_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "customers_organization_id_created_at_customer_id_idx" ON "customers"("organization_id", "created_at" DESC, "customer_id" DESC);

-- CreateIndex
CREATE INDEX "customers_organization_id_phone_normalized_idx" ON "customers"("organization_id", "phone_normalized");

-- CreateIndex
CREATE INDEX "customers_organization_id_status_idx" ON "customers"("organization_id", "status");

-- CreateIndex
CREATE UNIQUE INDEX "customers_organization_id_id_number_key" ON "customers"("organization_id", "id_number");

-- CreateIndex
CREATE INDEX "items_organization_id_serial_normalized_idx" ON "items"("organization_id", "serial_normalized");

-- CreateIndex
CREATE INDEX "items_organization_id_customer_id_idx" ON "items"("organization_id", "customer_id");

-- CreateIndex
CREATE INDEX "items_organization_id_is_assigned_created_at_idx" ON "items"("organization_id", "is_assigned", "created_at" DESC);

-- CreateIndex
CREATE INDEX "items_organization_id_created_at_item_id_idx" ON "items"("organization_id", "created_at" DESC, "item_id" DESC);

-- CreateIndex
CREATE INDEX "items_organization_id_product_oem_idx" ON "items"("organization_id", "product_oem");

-- CreateIndex
CREATE UNIQUE INDEX "items_organization_id_serial_number_key" ON "items"("organization_id", "serial_number");

-- CreateIndex
CREATE INDEX "payment_templates_organization_id_created_at_idx" ON "payment_templates"("organization_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "template_assignments_organization_id_customer_id_is_active_idx" ON "template_assignments"("organization_id", "customer_id", "is_active");

-- CreateIndex
CREATE INDEX "template_assignments_organization_id_template_id_is_active_idx" ON "template_assignments"("organization_id", "template_id", "is_active");

-- CreateIndex
CREATE INDEX "item_assignments_organization_id_item_id_idx" ON "item_assignments"("organization_id", "item_id");

-- CreateIndex
CREATE INDEX "item_assignments_organization_id_customer_id_idx" ON "item_assignments"("organization_id", "customer_id");

-- CreateIndex
CREATE INDEX "payments_organization_id_created_at_payment_id_idx" ON "payments"("organization_id", "created_at" DESC, "payment_id" DESC);

-- CreateIndex
CREATE INDEX "payments_organization_id_paid_at_idx" ON "payments"("organization_id", "paid_at");

-- CreateIndex
CREATE INDEX "payments_organization_id_customer_id_paid_at_idx" ON "payments"("organization_id", "customer_id", "paid_at" DESC);

-- CreateIndex
CREATE INDEX "payments_organization_id_item_id_paid_at_idx" ON "payments"("organization_id", "item_id", "paid_at" DESC);

-- CreateIndex
CREATE INDEX "payments_organization_id_status_idx" ON "payments"("organization_id", "status");

-- CreateIndex
CREATE UNIQUE INDEX "payments_organization_id_transaction_code_key" ON "payments"("organization_id", "transaction_code");

-- CreateIndex
CREATE INDEX "token_logs_organization_id_created_at_token_log_id_idx" ON "token_logs"("organization_id", "created_at" DESC, "token_log_id" DESC);

-- CreateIndex
CREATE INDEX "token_logs_organization_id_item_id_created_at_idx" ON "token_logs"("organization_id", "item_id", "created_at" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "token_logs_organization_id_item_id_token_count_key" ON "token_logs"("organization_id", "item_id", "token_count");

-- CreateIndex
CREATE INDEX "messages_organization_id_created_at_message_id_idx" ON "messages"("organization_id", "created_at" DESC, "message_id" DESC);

-- CreateIndex
CREATE INDEX "messages_organization_id_item_id_created_at_idx" ON "messages"("organization_id", "item_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "messages_organization_id_status_idx" ON "messages"("organization_id", "status");

-- CreateIndex
CREATE INDEX "messages_delivery_status_next_attempt_at_idx" ON "messages"("delivery_status", "next_attempt_at");

-- CreateIndex
CREATE UNIQUE INDEX "payment_providers_organization_id_provider_key" ON "payment_providers"("organization_id", "provider");

-- CreateIndex
CREATE UNIQUE INDEX "oem_credentials_organization_id_oem_name_key" ON "oem_credentials"("organization_id", "oem_name");

-- CreateIndex
CREATE UNIQUE INDEX "config_entries_organization_id_key_key" ON "config_entries"("organization_id", "key");

-- CreateIndex
CREATE INDEX "import_jobs_organization_id_created_at_idx" ON "import_jobs"("organization_id", "created_at" DESC);

-- AddForeignKey
ALTER TABLE "users" ADD CONSTRAINT "users_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("organization_id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "refresh_tokens" ADD CONSTRAINT "refresh_tokens_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("user_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "org_plans" ADD CONSTRAINT "org_plans_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("organization_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "org_plans" ADD CONSTRAINT "org_plans_plan_code_fkey" FOREIGN KEY ("plan_code") REFERENCES "plans"("plan_code") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "feature_flags" ADD CONSTRAINT "feature_flags_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("organization_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "invoice_settings" ADD CONSTRAINT "invoice_settings_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("organization_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("organization_id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "audit_logs" ADD CONSTRAINT "audit_logs_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("organization_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("organization_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "customers" ADD CONSTRAINT "customers_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("organization_id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "items" ADD CONSTRAINT "items_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("organization_id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "items" ADD CONSTRAINT "items_organization_id_customer_id_fkey" FOREIGN KEY ("organization_id", "customer_id") REFERENCES "customers"("organization_id", "customer_id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "payment_templates" ADD CONSTRAINT "payment_templates_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("organization_id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "template_assignments" ADD CONSTRAINT "template_assignments_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("organization_id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "template_assignments" ADD CONSTRAINT "template_assignments_organization_id_customer_id_fkey" FOREIGN KEY ("organization_id", "customer_id") REFERENCES "customers"("organization_id", "customer_id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "template_assignments" ADD CONSTRAINT "template_assignments_organization_id_template_id_fkey" FOREIGN KEY ("organization_id", "template_id") REFERENCES "payment_templates"("organization_id", "template_id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "item_assignments" ADD CONSTRAINT "item_assignments_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("organization_id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "item_assignments" ADD CONSTRAINT "item_assignments_organization_id_item_id_fkey" FOREIGN KEY ("organization_id", "item_id") REFERENCES "items"("organization_id", "item_id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "item_assignments" ADD CONSTRAINT "item_assignments_organization_id_customer_id_fkey" FOREIGN KEY ("organization_id", "customer_id") REFERENCES "customers"("organization_id", "customer_id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "payments" ADD CONSTRAINT "payments_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("organization_id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "payments" ADD CONSTRAINT "payments_organization_id_customer_id_fkey" FOREIGN KEY ("organization_id", "customer_id") REFERENCES "customers"("organization_id", "customer_id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "payments" ADD CONSTRAINT "payments_organization_id_item_id_fkey" FOREIGN KEY ("organization_id", "item_id") REFERENCES "items"("organization_id", "item_id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "token_logs" ADD CONSTRAINT "token_logs_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("organization_id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "token_logs" ADD CONSTRAINT "token_logs_organization_id_item_id_fkey" FOREIGN KEY ("organization_id", "item_id") REFERENCES "items"("organization_id", "item_id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "token_logs" ADD CONSTRAINT "token_logs_organization_id_customer_id_fkey" FOREIGN KEY ("organization_id", "customer_id") REFERENCES "customers"("organization_id", "customer_id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "token_logs" ADD CONSTRAINT "token_logs_organization_id_payment_id_fkey" FOREIGN KEY ("organization_id", "payment_id") REFERENCES "payments"("organization_id", "payment_id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "messages" ADD CONSTRAINT "messages_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("organization_id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "payment_providers" ADD CONSTRAINT "payment_providers_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("organization_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "oem_credentials" ADD CONSTRAINT "oem_credentials_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("organization_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "product_oem_configs" ADD CONSTRAINT "product_oem_configs_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("organization_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "config_entries" ADD CONSTRAINT "config_entries_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("organization_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "import_jobs" ADD CONSTRAINT "import_jobs_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("organization_id") ON DELETE CASCADE ON UPDATE CASCADE;

