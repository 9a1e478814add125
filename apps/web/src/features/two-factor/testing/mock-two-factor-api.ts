import type { TwoFactorStatus } from '@kidogo/contracts';
import { jsonResponse, type RecordedCall } from '@/testing/fetch';

export const PASSWORD = 'password123';
/** The code the fake authenticator app shows now. */
export const CURRENT_CODE = '123456';
export const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
export const OTPAUTH_URL = `otpauth://totp/Kidogo:amina?secret=${SECRET}&issuer=Kidogo&algorithm=SHA1&digits=6&period=30`;

/** Ten codes in the server's shape; `set` tells one set from the next. */
export const recoveryCodes = (set = 'a') => Array.from({ length: 10 }, (_, i) => `${set}${i}p2m-x9q4${String.fromCharCode(100 + i)}`);

const refuse = (status: number, field: string | null, message: string) =>
  jsonResponse(status, field ? { statusCode: status, detail: `${field}: ${message}`, message: `${field}: ${message}`, errors: [{ field, message }] } : { statusCode: status, detail: message, message });

export const REQUIRED_CANNOT_TURN_OFF =
  'Your organization requires two-factor sign-in, so it cannot be turned off: to move it to a new phone, ask an owner or admin to reset it, then set it up again';

/**
 * /auth/2fa in memory, as the API behaves: setup after the password, enable
 * with the current code, disable and new recovery codes after the password;
 * `requiredByOrganization` (settable) refuses disable with the API's 409.
 * For mockSettingsApi's handler (return undefined to fall through).
 */
export function twoFactorApi(initial: Partial<TwoFactorStatus> = {}) {
  const state: TwoFactorStatus & { pending: boolean; sets: number; requiredByOrganization: boolean } = {
    enabled: false,
    enabled_at: null,
    recovery_codes_left: 0,
    ...initial,
    pending: false,
    sets: 0,
    requiredByOrganization: false,
  };
  const issue = () => {
    state.sets += 1;
    state.recovery_codes_left = 10;
    return recoveryCodes(String.fromCharCode(96 + state.sets));
  };
  return {
    state,
    handler: (call: RecordedCall, path: string): Response | undefined => {
      if (!path.startsWith('/payg/auth/2fa')) return undefined;
      const body = call.body ? (JSON.parse(call.body) as { password?: string; code?: string }) : {};
      const wrongPassword = () => (body.password === PASSWORD ? null : refuse(400, 'password', 'is incorrect'));
      const { enabled, enabled_at, recovery_codes_left } = state;
      switch (`${call.method} ${path}`) {
        case 'GET /payg/auth/2fa':
          return jsonResponse(200, { enabled, enabled_at, recovery_codes_left });
        case 'POST /payg/auth/2fa/setup': {
          if (state.enabled) return refuse(409, null, 'Two-factor sign-in is already on');
          const refused = wrongPassword();
          if (refused) return refused;
          state.pending = true;
          return jsonResponse(200, { secret: SECRET, otpauth_url: OTPAUTH_URL, issuer: 'Kidogo', account: 'amina' });
        }
        case 'POST /payg/auth/2fa/enable':
          if (!state.pending) return refuse(409, null, 'Set up two-factor sign-in first');
          if (body.code !== CURRENT_CODE) return refuse(400, 'code', 'is not the current code from your authenticator app');
          Object.assign(state, { enabled: true, enabled_at: '2026-11-25T09:30:00Z', pending: false });
          return jsonResponse(200, { message: 'Two-factor sign-in is on', recovery_codes: issue() });
        case 'POST /payg/auth/2fa/disable': {
          const refused = wrongPassword();
          if (refused) return refused;
          if (state.enabled && state.requiredByOrganization) return refuse(409, null, REQUIRED_CANNOT_TURN_OFF);
          Object.assign(state, { enabled: false, enabled_at: null, recovery_codes_left: 0 });
          return jsonResponse(200, { message: 'Two-factor sign-in is off' });
        }
        case 'POST /payg/auth/2fa/recovery-codes': {
          if (!state.enabled) return refuse(409, null, 'Two-factor sign-in is off');
          const refused = wrongPassword();
          if (refused) return refused;
          return jsonResponse(200, { message: 'New recovery codes made', recovery_codes: issue() });
        }
        default:
          return undefined;
      }
    },
  };
}
