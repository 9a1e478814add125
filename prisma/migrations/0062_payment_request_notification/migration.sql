-- A user is told in the bell when a customer answers the M-Pesa Express request they sent (paid, cancelled, failed).
-- AlterEnum
ALTER TYPE "UserNotificationKind" ADD VALUE 'payment_request_answered';
