import { z } from 'zod';

/**
 * Where a user is signed in (Settings → Signed-In Devices): one entry per
 * sign-in still able to renew its access token. A sign-in keeps its
 * session_id across refreshes; last_active_at is its latest refresh (a
 * browser in use refreshes every few minutes).
 */
export const ZSessionSchema = z.object({
  session_id: z.string(),
  signed_in_at: z.string(),
  last_active_at: z.string(),
  /** When it ends unless used again (the refresh token's expiry). */
  expires_at: z.string(),
  /** The client address of the latest sign-in or refresh. */
  ip: z.string().nullable(),
  /** The browser's User-Agent, as sent (at most 300 characters). */
  user_agent: z.string().nullable(),
  /** The session this request is made from. */
  current: z.boolean(),
});
export type Session = z.infer<typeof ZSessionSchema>;

/** GET /auth/sessions: the caller's own, most recently active first (at most 100). */
export const ZSessionListSchema = z.object({ data: z.array(ZSessionSchema) });
export type SessionList = z.infer<typeof ZSessionListSchema>;

/** The reply of ending sessions: how many ended. */
export const ZSignOutReplySchema = z.object({
  message: z.string(),
  sessions_ended: z.number().int(),
});
export type SignOutReply = z.infer<typeof ZSignOutReplySchema>;
