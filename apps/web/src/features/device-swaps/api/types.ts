// The API's contract (packages/contracts/src/swaps.ts).
export type { DeviceSwap, DeviceSwapsReply, ItemSwapInput, ItemSwapReply } from '@kidogo/contracts';

/** What a list asks GET /device-swaps for: one device's swaps (either side) or one customer's. */
export interface DeviceSwapsListQuery {
  page: number;
  limit: number;
  serial_number?: string;
  customer_id?: number;
}
