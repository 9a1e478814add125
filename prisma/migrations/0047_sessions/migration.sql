-- Where a user is signed in (GET /payg/auth/sessions): a sign-in keeps its
-- session_id through every refresh (each refresh token row is one link of
-- its chain), with when it signed in and the browser and address it was last
-- refreshed from. Rows from before are each a session of their own.
ALTER TABLE "refresh_tokens" ADD COLUMN "session_id" UUID,
ADD COLUMN "signed_in_at" TIMESTAMPTZ(3),
ADD COLUMN "user_agent" VARCHAR(300),
ADD COLUMN "ip" VARCHAR(64);
UPDATE "refresh_tokens" SET "session_id" = "id", "signed_in_at" = "created_at";
ALTER TABLE "refresh_tokens" ALTER COLUMN "session_id" SET NOT NULL,
ALTER COLUMN "signed_in_at" SET NOT NULL;

-- Sign out everywhere (the user's own, or a manager's for them): access
-- tokens issued before it are refused at once, as after a password reset.
ALTER TABLE "users" ADD COLUMN "sessions_revoked_at" TIMESTAMPTZ(3);
