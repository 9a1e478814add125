import type { DeviceSwapsListQuery } from './types';

/** Query keys of the device swaps. A swap changes both devices and the customer, so it refreshes everything cached. */
export const deviceSwapKeys = {
  all: ['device-swaps'] as const,
  lists: () => [...deviceSwapKeys.all, 'list'] as const,
  list: (q: DeviceSwapsListQuery) => [...deviceSwapKeys.lists(), q] as const,
};
