import type { UssdTryInput, UssdTryReply } from '@kidogo/contracts';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/**
 * POST /settings/ussd/try: the screen a phone would see after the answers in `text` (joined by `*`, "" for the first
 * one). Nothing is sent, asked or opened; `would` says what the real menu would have done at the last step.
 */
export const tryUssdMenu = (input: UssdTryInput) => api.post<UssdTryReply>('/settings/ussd/try', input);

export const useTryUssdMenu = () => useMutation({ mutationFn: tryUssdMenu });
