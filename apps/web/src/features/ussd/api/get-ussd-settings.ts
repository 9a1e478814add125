import type { UssdSettingsReply } from '@kidogo/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { ussdKeys } from './keys';

/** GET /settings/ussd: owners and admins only (403 for staff). Whether the menu is on, its address while it is, and its use. */
export const getUssdSettings = (signal?: AbortSignal) => api.get<UssdSettingsReply>('/settings/ussd', { signal });

export const ussdSettingsQueryOptions = () =>
  queryOptions({ queryKey: ussdKeys.settings(), queryFn: ({ signal }) => getUssdSettings(signal), select: (reply) => reply.data });

export const useUssdSettings = () => useQuery(ussdSettingsQueryOptions());
