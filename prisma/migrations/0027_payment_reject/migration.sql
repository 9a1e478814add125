-- AlterEnum
-- The message of a held payment that staff rejected (POST /payg/payments/{id}/reject):
-- neither waiting for a match nor applied.
ALTER TYPE "MessageStatus" ADD VALUE 'rejected';
