import type { MpesaExpressSettings } from '@kidogo/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { mpesaExpressKeys } from './keys';

/** GET /settings/mpesa-express: owners and admins only (403 for staff); the secrets come back masked. */
export const getMpesaExpressSettings = (signal?: AbortSignal) => api.get<MpesaExpressSettings>('/settings/mpesa-express', { signal });

export const mpesaExpressSettingsQueryOptions = () =>
  queryOptions({ queryKey: mpesaExpressKeys.settings(), queryFn: ({ signal }) => getMpesaExpressSettings(signal) });

export const useMpesaExpressSettings = () => useQuery(mpesaExpressSettingsQueryOptions());
