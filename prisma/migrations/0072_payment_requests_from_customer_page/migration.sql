-- AlterTable: Pay Now on the customer's page sends Ask to Pay requests by nobody; a user removed leaves requested_by
-- null too, so the page's requests are told apart by this flag (its report row, its hourly limit).
ALTER TABLE "payment_requests" ADD COLUMN     "from_customer_page" BOOLEAN NOT NULL DEFAULT false;
