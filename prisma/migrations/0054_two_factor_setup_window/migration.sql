-- Where an organization requires two-factor sign-in, a user who has not set
-- it up yet signs in with the password alone to do so. A password stolen
-- before then would be enough to set it up on the thief's phone, for as long
-- as the user had not. So the set-up is open for a limited time: until
-- two_factor_setup_until, opened for 7 days when the organization starts
-- requiring it, when a user is added to an organization that requires it,
-- and when a manager resets the user's two-factor sign-in (or lets them set
-- it up again once the time has passed). Voluntary set-up, in an
-- organization that does not require it, is not limited.
ALTER TABLE "users" ADD COLUMN "two_factor_setup_until" TIMESTAMPTZ(3);

-- Users who must set it up now get their 7 days from this upgrade.
UPDATE users u SET two_factor_setup_until = now() + interval '7 days'
FROM organizations o
WHERE o.organization_id = u.organization_id AND o.require_two_factor AND u.totp_enabled_at IS NULL;
