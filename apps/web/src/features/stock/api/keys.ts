import type { StockMovementsQuery } from './types';

/**
 * Query keys of the stock feature. A move changes the places' counts and adds
 * movements (it also changes the devices, so it refreshes everything); adding,
 * renaming or deleting a place changes the list of places.
 */
export const stockKeys = {
  all: ['stock'] as const,
  locations: () => [...stockKeys.all, 'locations'] as const,
  movementLists: () => [...stockKeys.all, 'movements'] as const,
  movements: (q: StockMovementsQuery) => [...stockKeys.movementLists(), q] as const,
};
