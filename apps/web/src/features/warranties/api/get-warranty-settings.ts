import { queryOptions, useQuery } from '@tanstack/react-query';
import type { WarrantySettings } from '@kidogo/contracts';
import { api } from '@/lib/api-client';
import { warrantyKeys } from './keys';

/** GET /settings/warranties: the products with a warranty (and how many devices each covers), and the other product names. */
export const getWarrantySettings = (signal?: AbortSignal) => api.get<WarrantySettings>('/settings/warranties', { signal });

export const warrantySettingsQueryOptions = () =>
  queryOptions({ queryKey: warrantyKeys.settings(), queryFn: ({ signal }) => getWarrantySettings(signal) });

export const useWarrantySettings = () => useQuery(warrantySettingsQueryOptions());
