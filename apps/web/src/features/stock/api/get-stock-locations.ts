import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { stockKeys } from './keys';
import type { StockCounts, StockLocationListReply } from './types';

export const NO_STOCK: StockCounts = { available: 0, maintenance: 0, retired: 0, given_out: 0, in_stock: 0 };

/** GET /stock-locations: every place by name, with its counts, and the devices in none. */
export async function getStockLocations(signal?: AbortSignal): Promise<StockLocationListReply> {
  const reply = await api.get<Partial<StockLocationListReply> | null>('/stock-locations', { signal });
  return {
    data: reply?.data ?? [],
    unplaced: { counts: { ...NO_STOCK, ...reply?.unplaced?.counts }, products: reply?.unplaced?.products ?? [] },
  };
}

export const stockLocationsQueryOptions = () =>
  queryOptions({ queryKey: stockKeys.locations(), queryFn: ({ signal }) => getStockLocations(signal) });

export const useStockLocations = () => useQuery(stockLocationsQueryOptions());

/** "Not placed": the devices in no stock location, as a Select's value and as its label. */
export const NOT_PLACED = { value: 'none', label: 'Not placed' } as const;

/** The places as Select options, by id. */
export function useLocationOptions(): { value: string; label: string }[] {
  const { data } = useStockLocations();
  return (data?.data ?? []).map((l) => ({ value: String(l.location_id), label: l.name }));
}
