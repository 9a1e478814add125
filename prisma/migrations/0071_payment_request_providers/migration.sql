-- AlterTable
ALTER TABLE "payment_requests" ADD COLUMN     "currency" VARCHAR(3) NOT NULL DEFAULT 'KES',
ADD COLUMN     "provider" VARCHAR(20) NOT NULL DEFAULT 'mpesa_express';

