-- A read-only API token (POST /payg/auth/api-tokens {read_only: true}) may call
-- the GET routes and the few POST routes that only read; anything else is 403.
ALTER TABLE "api_tokens" ADD COLUMN "read_only" BOOLEAN NOT NULL DEFAULT false;
