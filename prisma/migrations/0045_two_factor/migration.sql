-- Two-factor sign-in (TOTP, RFC 6238): a user who turns it on signs in with a
-- code from an authenticator app after the password. The secret is sealed with
-- ENCRYPTION_KEY; totp_last_step makes each code work once; the recovery codes
-- are kept as sha256, each removed when used.
ALTER TABLE "users" ADD COLUMN "totp_secret_enc" TEXT,
ADD COLUMN "totp_enabled_at" TIMESTAMPTZ(3),
ADD COLUMN "totp_last_step" BIGINT,
ADD COLUMN "totp_recovery_codes" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- An organization may require it of every user: one without it may then only
-- set it up (AccessGuard answers 403 TWO_FACTOR_REQUIRED to anything else).
ALTER TABLE "organizations" ADD COLUMN "require_two_factor" BOOLEAN NOT NULL DEFAULT false;
