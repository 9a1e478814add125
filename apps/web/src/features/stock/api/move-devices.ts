import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { refreshAfterWrite } from '@/lib/query-client';
import type { StockMoveInput, StockMoveReply } from './types';

/** POST /stock-locations/move: devices in stock to a place, or to none (location_id null); all of them or none. */
export const moveDevices = (input: StockMoveInput) => api.post<StockMoveReply>('/stock-locations/move', input);

export function useMoveDevices() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: moveDevices,
    // The places' counts, their movements, the products list and the devices' pages changed: everything cached is stale.
    onSuccess: () => refreshAfterWrite(qc),
  });
}
