import type { MessageReply, PasswordResetAvailability, PasswordResetConfirmInput, PasswordResetRequestInput } from '@kidogo/contracts';
import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** GET /auth/password-reset: whether this installation emails links to choose a new password (SMTP_URL and PUBLIC_URL set). */
export const getPasswordResetAvailability = () => api.get<PasswordResetAvailability>('/auth/password-reset', { auth: false });

export const usePasswordResetAvailability = () =>
  useQuery({
    queryKey: ['auth', 'password-reset'],
    queryFn: getPasswordResetAvailability,
    // The installation's configuration: it does not change while the page is open.
    staleTime: Infinity,
    retry: false,
  });

/** POST /auth/password-reset: the link goes to the account's email address; the reply does not say whether one matched. */
export const useRequestPasswordReset = () =>
  useMutation({ mutationFn: (body: PasswordResetRequestInput) => api.post<MessageReply>('/auth/password-reset', body, { auth: false }) });

/** POST /auth/password-reset/confirm: the emailed link's token and the new password. */
export const useConfirmPasswordReset = () =>
  useMutation({ mutationFn: (body: PasswordResetConfirmInput) => api.post<MessageReply>('/auth/password-reset/confirm', body, { auth: false }) });
