import type { MtnMomoTestReply } from '@kidogo/contracts';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** POST /settings/mtn-momo/test: the saved API user and keys tried against MTN (an access token asked for). Changes nothing. */
export const testMtnMomo = () => api.post<MtnMomoTestReply>('/settings/mtn-momo/test');

export const useTestMtnMomo = () => useMutation({ mutationFn: testMtnMomo });
