import type { RecoveryCodesReply, TwoFactorEnableInput, TwoFactorPasswordInput, TwoFactorSetupReply, TwoFactorStatus } from '@kidogo/contracts';
import { queryOptions, useIsMutating, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { settingsKeys } from '@/features/settings/api/keys';
import { api } from '@/lib/api-client';
import { refreshAfterWrite } from '@/lib/query-client';

export const twoFactorKeys = {
  status: ['two-factor'] as const,
  /** Every write's mutation key: a modal stays open while one of them runs. */
  writes: ['two-factor', 'write'] as const,
};

/** The signed-in user's own two-factor sign-in: on or off, since when, how many recovery codes are left. */
export const twoFactorStatusQueryOptions = () =>
  queryOptions({ queryKey: twoFactorKeys.status, queryFn: ({ signal }) => api.get<TwoFactorStatus>('/auth/2fa', { signal }) });

export const useTwoFactorStatus = () => useQuery(twoFactorStatusQueryOptions());

/**
 * A change to the user's two-factor sign-in: its status is stale, and so are the team list, whose row for the user
 * carries a 2FA badge, and the Security card's count of users without it.
 */
function useTwoFactorMutation<V, R>(fn: (v: V) => Promise<R>) {
  const qc = useQueryClient();
  return useMutation({
    mutationKey: twoFactorKeys.writes,
    mutationFn: fn,
    onSuccess: () =>
      Promise.all([
        refreshAfterWrite(qc, { queryKey: twoFactorKeys.status }),
        refreshAfterWrite(qc, { queryKey: settingsKeys.team() }),
        refreshAfterWrite(qc, { queryKey: settingsKeys.security() }),
      ]),
  });
}

/** Step one of turning it on: a new secret for the authenticator app, after the password. Nothing changes until /enable. */
export const useSetUpTwoFactor = () =>
  useMutation({ mutationKey: twoFactorKeys.writes, mutationFn: (body: TwoFactorPasswordInput) => api.post<TwoFactorSetupReply>('/auth/2fa/setup', body) });

/** Whether a two-factor write is under way: its modal must not close and lose the reply (the recovery codes are shown once). */
export const useTwoFactorWriting = () => useIsMutating({ mutationKey: twoFactorKeys.writes }) > 0;

/** Step two: the app's first code proves it holds the secret; the reply's recovery codes are shown this once. */
export const useEnableTwoFactor = () => useTwoFactorMutation((body: TwoFactorEnableInput) => api.post<RecoveryCodesReply>('/auth/2fa/enable', body));

export const useDisableTwoFactor = () => useTwoFactorMutation((body: TwoFactorPasswordInput) => api.post<{ message: string }>('/auth/2fa/disable', body));

/** A new set of recovery codes; the old ones stop working. */
export const useNewRecoveryCodes = () => useTwoFactorMutation((body: TwoFactorPasswordInput) => api.post<RecoveryCodesReply>('/auth/2fa/recovery-codes', body));
