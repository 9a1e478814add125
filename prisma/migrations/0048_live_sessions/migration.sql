-- Ending a session (one device signed out, everywhere else, everywhere) ends
-- its access tokens at once: every request checks, with its session lookup,
-- that the token's session still has a live refresh token. This finds it by
-- session_id among the live ones only (a session's spent links are many).
CREATE INDEX "refresh_tokens_live_session" ON "refresh_tokens" ("session_id") WHERE "revoked_at" IS NULL;
