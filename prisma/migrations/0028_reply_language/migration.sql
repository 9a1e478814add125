-- AlterTable
-- The language of the token replies an organization sends its customers (PUT /payg/settings/sms-provider).
ALTER TABLE "organizations" ADD COLUMN "reply_language" VARCHAR(2) NOT NULL DEFAULT 'en';
