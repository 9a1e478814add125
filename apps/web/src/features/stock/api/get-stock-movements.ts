import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api, suspendableList } from '@/lib/api-client';
import { stockKeys } from './keys';
import type { StockMovement, StockMovementsQuery, StockMovementsReply } from './types';

/** The contract's default page size. */
export const MOVEMENTS_PAGE_SIZE = 20;

export interface MovementsPage {
  data: StockMovement[];
  total: number;
}

/** GET /stock-movements: newest first; the organization's, one device's or one place's. */
export const getStockMovements = (q: StockMovementsQuery, signal?: AbortSignal) =>
  suspendableList<MovementsPage>(
    api
      .get<Partial<StockMovementsReply> | null>('/stock-movements', {
        query: { page: q.page, limit: q.limit, serial_number: q.serial_number, location_id: q.location_id },
        signal,
      })
      .then((reply) => {
        const data = reply?.data ?? [];
        return { data, total: reply?.pagination?.total ?? data.length };
      }),
    { total: 0 },
  );

export const stockMovementsQueryOptions = (q: StockMovementsQuery) =>
  queryOptions({ queryKey: stockKeys.movements(q), queryFn: ({ signal }) => getStockMovements(q, signal) });

/** The previous page stays on screen while the next one loads, so the table does not jump. */
export const useStockMovements = (q: StockMovementsQuery) => useQuery({ ...stockMovementsQueryOptions(q), placeholderData: keepPreviousData });
