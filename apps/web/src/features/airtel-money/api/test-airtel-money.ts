import type { AirtelMoneyTestReply } from '@kidogo/contracts';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** POST /settings/airtel-money/test: the saved client id and secret tried against Airtel (an access token asked for). Changes nothing. */
export const testAirtelMoney = () => api.post<AirtelMoneyTestReply>('/settings/airtel-money/test');

export const useTestAirtelMoney = () => useMutation({ mutationFn: testAirtelMoney });
