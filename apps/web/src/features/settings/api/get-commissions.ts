import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { settingsKeys } from './keys';
import type { CommissionSettings } from './types';

export const getCommissions = (signal?: AbortSignal) => api.get<CommissionSettings>('/settings/commissions', { signal });

export const commissionsQueryOptions = () =>
  queryOptions({ queryKey: settingsKeys.commissions(), queryFn: ({ signal }) => getCommissions(signal) });

export const useCommissions = () => useQuery(commissionsQueryOptions());
