// Mirrors packages/contracts/src/tokens.ts of the API worktree
// (feat/api-money) until that contract is merged into main; then these
// become re-exports from @kidogo/contracts.

/** The most days one standard OpenPAYGO token can carry. */
export const MAX_TOKEN_DAYS = 995;

export type TokenKind = 'add_time' | 'set_time' | 'activation' | 'unlock' | 'counter_sync';

export interface TokenLog {
  id: number;
  token_value: string;
  serial_number: string;
  customer_name: string | null;
  token_type: TokenKind;
  days_generated: number;
  token_count: number;
  status: string;
  is_valid: boolean;
  was_assigned: boolean;
  payment_id: number | null;
  created_at: string;
  generated_by: string | null;
}

export interface TokenLogList {
  data: { items: TokenLog[]; total: number };
}

export interface TokenLogQuery {
  limit: number;
  offset: number;
  search?: string;
}

export interface GenerateTokenByDaysInput {
  serial_number: string;
  number_of_days: number;
}

/** What every token generation answers. */
export interface TokenReply {
  code_token: string;
  code_type: TokenKind;
  days: number;
  token_count: number;
  serial_number: string;
  isOrganizationSuspended: boolean;
}

/** A device suggestion for the serial number box (POST /items/search). */
export interface DeviceSuggestion {
  serial_number: string;
  product_name: string;
  customer_name: string | null;
}
