// The API's contract (packages/contracts/src/stock.ts), plus what only these screens need.
export type {
  StockCounts,
  StockLocation,
  StockLocationInput,
  StockLocationListReply,
  StockLocationReply,
  StockLocationUpdate,
  StockMoveInput,
  StockMoveReply,
  StockMovement,
  StockMovementsReply,
  StockProductCounts,
  StockTakeDevice,
  StockTakeInput,
  StockTakeReply,
} from '@kidogo/contracts';
export { STOCK_MOVE_MAX, STOCK_TAKE_MAX } from '@kidogo/contracts';

/** What a list asks GET /stock-movements for (the contract's query with its defaults applied). */
export interface StockMovementsQuery {
  page: number;
  limit: number;
  /** One device's moves (its page). */
  serial_number?: string;
  /** One place's moves, to or from it. */
  location_id?: number;
}
