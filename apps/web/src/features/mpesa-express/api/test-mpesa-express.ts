import type { MpesaExpressTestReply } from '@kidogo/contracts';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** POST /settings/mpesa-express/test: the saved keys tried against Safaricom (an access token asked for). Changes nothing. */
export const testMpesaExpress = () => api.post<MpesaExpressTestReply>('/settings/mpesa-express/test');

export const useTestMpesaExpress = () => useMutation({ mutationFn: testMpesaExpress });
