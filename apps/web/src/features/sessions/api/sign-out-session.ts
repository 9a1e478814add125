import type { SignOutReply } from '@kidogo/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { refreshAfterWrite } from '@/lib/query-client';
import { sessionKeys } from './keys';

/** Ends one other session: its access token is refused from its next request, and it cannot renew it. */
export const signOutSession = (sessionId: string) => api.delete<SignOutReply>(`/auth/sessions/${encodeURIComponent(sessionId)}`);

/** The list reads again on failure too: a 404 means the session had already ended, and it must leave the list. */
export function useSignOutSession() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: signOutSession, onSettled: () => refreshAfterWrite(qc, { queryKey: sessionKeys.list() }) });
}
