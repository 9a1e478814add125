-- The country whose phone numbers are written without a country code, per organization (Kenya by default).
-- AlterTable
ALTER TABLE "organizations" ADD COLUMN     "phone_country_code" VARCHAR(3) NOT NULL DEFAULT '254';


-- One of the countries Kidogo reads phone numbers for (PHONE_COUNTRIES in
-- packages/contracts, each known to packages/mobile-money's normalizePhone).
ALTER TABLE "organizations" ADD CONSTRAINT "organizations_phone_country_code_check"
  CHECK ("phone_country_code" IN ('254', '256', '255', '250', '257', '211', '243', '251', '260', '265', '263', '234', '233'));
