-- An invoice is emailed with its PDF attached (SMTP_URL): when it last was, and to whom.
-- AlterTable
ALTER TABLE "invoices" ADD COLUMN     "emailed_at" TIMESTAMPTZ(3),
ADD COLUMN     "emailed_to" VARCHAR(254);

