import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { StockTakeInput, StockTakeReply } from './types';

/** POST /stock-locations/{id}/stock-take: the serials counted at a place against what Kidogo has there. Changes no device. */
export const takeStock = (locationId: number, input: StockTakeInput) =>
  api.post<StockTakeReply>(`/stock-locations/${locationId}/stock-take`, input);

export function useStockTake(locationId: number) {
  return useMutation({ mutationFn: (input: StockTakeInput) => takeStock(locationId, input) });
}
