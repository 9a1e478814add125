-- The PAYG agreement's settings (Settings → Agreement): the seller's details
-- besides its name, the paybill or till number customers pay to, and the
-- organization's own terms after the standard ones.
-- AlterTable
ALTER TABLE "organizations" ADD COLUMN     "agreement_extra_terms" VARCHAR(4000),
ADD COLUMN     "agreement_paybill" VARCHAR(10),
ADD COLUMN     "agreement_seller_details" VARCHAR(300);

