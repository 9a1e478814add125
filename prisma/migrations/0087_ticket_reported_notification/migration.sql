-- Owners and admins are told (their own notifications) when a customer
-- reports a problem themselves on the USSD menu: a service ticket nobody
-- opened or was given.
ALTER TYPE "UserNotificationKind" ADD VALUE 'ticket_reported';
