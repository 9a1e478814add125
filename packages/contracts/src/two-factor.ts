import { z } from 'zod';
import { ZAuthReplySchema } from './auth.js';

/**
 * Two-factor sign-in (TOTP, RFC 6238: the six-digit codes of Google
 * Authenticator, Microsoft Authenticator, Authy, 1Password): once a user
 * turns it on, POST /authenticate answers a correct password with a
 * challenge instead of a session, and POST /authenticate/2fa exchanges the
 * challenge and a current code (or one of ten single-use recovery codes) for
 * the session.
 */

/** How many recovery codes a user is given at a time. */
export const RECOVERY_CODE_COUNT = 10;
/** Seconds a sign-in challenge stays valid. */
export const TWO_FACTOR_CHALLENGE_SECONDS = 300;

/**
 * Where an organization requires two-factor sign-in, the days a user without it has to set it up with the
 * password alone: from when it was required of everyone, from when they were added, or from a manager's reset.
 * Afterwards only a manager's reset opens it again, so a password stolen meanwhile is not enough to set it up.
 */
export const TWO_FACTOR_SETUP_DAYS = 7;

/** GET /auth/2fa: the signed-in user's own two-factor sign-in. */
export const ZTwoFactorStatusSchema = z.object({
  enabled: z.boolean(),
  enabled_at: z.string().nullable(),
  /** Recovery codes not yet used (0 when off). */
  recovery_codes_left: z.number().int(),
});
export type TwoFactorStatus = z.infer<typeof ZTwoFactorStatusSchema>;

/** POST /auth/2fa/setup, /auth/2fa/disable, /auth/2fa/recovery-codes: the user's current password, asked again. */
export const ZTwoFactorPasswordSchema = z.object({
  password: z.string({ error: 'is required' }).min(1, { error: 'is required' }).max(200, { error: 'must be at most 200 characters' }),
});
export type TwoFactorPasswordInput = z.infer<typeof ZTwoFactorPasswordSchema>;

/** POST /auth/2fa/setup: the new secret, for the authenticator app (scan otpauth_url as a QR code, or type the secret). */
export const ZTwoFactorSetupReplySchema = z.object({
  /** Base32, as authenticator apps take it typed in. */
  secret: z.string(),
  otpauth_url: z.string(),
  issuer: z.string(),
  account: z.string(),
});
export type TwoFactorSetupReply = z.infer<typeof ZTwoFactorSetupReplySchema>;

/** Six digits from the authenticator app; spaces and dashes are ignored. */
export const zTotpCode = z
  .string({ error: 'is required' })
  .transform((s) => s.replace(/[\s-]/g, ''))
  .pipe(z.string().min(1, { error: 'is required' }).regex(/^\d{6}$/, { error: 'must be the 6 digits your authenticator app shows' }));

/** POST /auth/2fa/enable: the first code the app shows, which proves it has the secret. */
export const ZTwoFactorEnableSchema = z.object({ code: zTotpCode });
export type TwoFactorEnableInput = z.input<typeof ZTwoFactorEnableSchema>;

/** POST /auth/2fa/enable and /auth/2fa/recovery-codes: the recovery codes, shown this once. */
export const ZRecoveryCodesReplySchema = z.object({
  message: z.string(),
  recovery_codes: z.array(z.string()),
});
export type RecoveryCodesReply = z.infer<typeof ZRecoveryCodesReplySchema>;

/** POST /authenticate for a user with two-factor sign-in: the password was right; now the code. */
export const ZTwoFactorChallengeSchema = z.object({
  two_factor_required: z.literal(true),
  challenge_token: z.string(),
  expires_in: z.number().int(),
  message: z.string(),
});
export type TwoFactorChallenge = z.infer<typeof ZTwoFactorChallengeSchema>;

/** POST /authenticate: a session, or a challenge when the user has two-factor sign-in on. */
export const ZLoginReplySchema = z.union([ZAuthReplySchema, ZTwoFactorChallengeSchema]);
export type LoginReply = z.infer<typeof ZLoginReplySchema>;

/** POST /authenticate/2fa: the challenge and a code: six digits, or a recovery code (xxxxx-xxxxx). */
export const ZTwoFactorLoginSchema = z.object({
  challenge_token: z.string({ error: 'is required' }).min(1, { error: 'is required' }).max(2000, { error: 'must be at most 2000 characters' }),
  code: z.string({ error: 'is required' }).trim().min(1, { error: 'is required' }).max(40, { error: 'must be at most 40 characters' }),
});
export type TwoFactorLoginInput = z.infer<typeof ZTwoFactorLoginSchema>;

/** The 403 a user without two-factor sign-in gets, in an organization that requires it, on anything but setting it up. */
export const TWO_FACTOR_REQUIRED = 'TWO_FACTOR_REQUIRED';
export const ZTwoFactorRequiredReplySchema = z.object({
  detail: z.object({ error: z.literal(TWO_FACTOR_REQUIRED), message: z.string() }),
  message: z.string(),
});
export type TwoFactorRequiredReply = z.infer<typeof ZTwoFactorRequiredReplySchema>;

/**
 * The 401 of POST /authenticate/2fa when its challenge can no longer be used (more than 5 minutes old, not one of
 * ours, or its user deactivated or without two-factor sign-in since): the password must be given again. A wrong
 * code is a 401 without `code`.
 */
export const TWO_FACTOR_CHALLENGE_EXPIRED = 'TWO_FACTOR_CHALLENGE_EXPIRED';
export const ZChallengeExpiredReplySchema = z.object({
  detail: z.string(),
  message: z.string(),
  code: z.literal(TWO_FACTOR_CHALLENGE_EXPIRED),
});
export type ChallengeExpiredReply = z.infer<typeof ZChallengeExpiredReplySchema>;

/** GET /settings/security (owners and admins): whether every user of the organization must use two-factor sign-in. */
export const ZSecuritySettingsSchema = z.object({
  require_two_factor: z.boolean(),
  /** Active users of the organization without two-factor sign-in (each is asked to set it up at their next call). */
  users_without_two_factor: z.number().int(),
});
export type SecuritySettings = z.infer<typeof ZSecuritySettingsSchema>;

/** PUT /settings/security. Turning it on needs the caller's own two-factor sign-in on (409 otherwise). */
export const ZSecuritySettingsInputSchema = z.object({
  require_two_factor: z.boolean({ error: 'must be true or false' }),
});
export type SecuritySettingsInput = z.infer<typeof ZSecuritySettingsInputSchema>;
