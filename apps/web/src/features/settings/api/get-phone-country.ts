import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { settingsKeys } from './keys';
import type { PhoneCountry } from './types';

export const getPhoneCountry = (signal?: AbortSignal) => api.get<PhoneCountry>('/settings/phone-country', { signal });

export const phoneCountryQueryOptions = () =>
  queryOptions({ queryKey: settingsKeys.phoneCountry(), queryFn: ({ signal }) => getPhoneCountry(signal), staleTime: 5 * 60_000 });

export const usePhoneCountry = () => useQuery(phoneCountryQueryOptions());
