import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { refreshAfterWrite } from '@/lib/query-client';
import { stockKeys } from './keys';
import type { StockLocationInput, StockLocationReply, StockLocationUpdate } from './types';

/** POST /stock-locations (owners and admins). */
export const createStockLocation = (input: StockLocationInput) => api.post<StockLocationReply>('/stock-locations', input);

/** PUT /stock-locations/{location_id} (owners and admins). */
export const updateStockLocation = ({ locationId, changes }: { locationId: number; changes: StockLocationUpdate }) =>
  api.put<StockLocationReply>(`/stock-locations/${locationId}`, changes);

/** DELETE /stock-locations/{location_id} (owners and admins): refused while devices are in stock there. */
export const deleteStockLocation = (locationId: number) => api.delete<{ message: string }>(`/stock-locations/${locationId}`);

export function useCreateStockLocation() {
  const qc = useQueryClient();
  // A new place holds nothing yet: only the places (and the screens' location choices) change.
  return useMutation({ mutationFn: createStockLocation, onSuccess: () => refreshAfterWrite(qc, { queryKey: stockKeys.all }) });
}

export function useUpdateStockLocation() {
  const qc = useQueryClient();
  // A new name shows on the devices kept there too (Products, Device Activity): everything cached is stale.
  return useMutation({ mutationFn: updateStockLocation, onSuccess: () => refreshAfterWrite(qc) });
}

export function useDeleteStockLocation() {
  const qc = useQueryClient();
  // The devices given out from it keep no place: the devices' screens change too.
  return useMutation({ mutationFn: deleteStockLocation, onSuccess: () => refreshAfterWrite(qc) });
}
