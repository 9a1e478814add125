// The token shapes are the API's contract (packages/contracts/src/tokens.ts).

export { MAX_TOKEN_DAYS } from '@kidogo/contracts';
export type {
  GenerateTokenByDaysInput,
  GenerateTokenInput,
  TokenKind,
  TokenLog,
  TokenLogList,
  TokenReply,
} from '@kidogo/contracts';

export interface TokenLogQuery {
  limit: number;
  offset: number;
  search?: string;
}

/** A device suggestion for the serial number box (POST /items/search; only the fields used here). */
export interface DeviceSuggestion {
  serial_number: string;
  product_name: string;
  customer_name: string | null;
}

