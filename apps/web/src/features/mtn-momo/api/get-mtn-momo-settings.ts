import type { MtnMomoSettings } from '@kidogo/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { mtnMomoKeys } from './keys';

/** GET /settings/mtn-momo: owners and admins only (403 for staff); the API key and subscription key come back masked. */
export const getMtnMomoSettings = (signal?: AbortSignal) => api.get<MtnMomoSettings>('/settings/mtn-momo', { signal });

export const mtnMomoSettingsQueryOptions = () => queryOptions({ queryKey: mtnMomoKeys.settings(), queryFn: ({ signal }) => getMtnMomoSettings(signal) });

export const useMtnMomoSettings = () => useQuery(mtnMomoSettingsQueryOptions());
