import type { AirtelMoneySettings } from '@kidogo/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { airtelMoneyKeys } from './keys';

/** GET /settings/airtel-money: owners and admins only (403 for staff); the client secret comes back masked. */
export const getAirtelMoneySettings = (signal?: AbortSignal) => api.get<AirtelMoneySettings>('/settings/airtel-money', { signal });

export const airtelMoneySettingsQueryOptions = () =>
  queryOptions({ queryKey: airtelMoneyKeys.settings(), queryFn: ({ signal }) => getAirtelMoneySettings(signal) });

export const useAirtelMoneySettings = () => useQuery(airtelMoneySettingsQueryOptions());
