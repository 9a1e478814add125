import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { settingsKeys } from './keys';
import type { SmsProvider } from './types';

export const getSmsProvider = (signal?: AbortSignal) => api.get<SmsProvider>('/settings/sms-provider', { signal });

export const smsProviderQueryOptions = () =>
  queryOptions({ queryKey: settingsKeys.smsProvider(), queryFn: ({ signal }) => getSmsProvider(signal) });

export const useSmsProvider = (enabled: boolean) => useQuery({ ...smsProviderQueryOptions(), enabled });
