import type { TokenKind, TokenLog } from '@kidogo/contracts';

export type TokenLogRow = {
  id: number;
  token_value: string;
  serial_number: string;
  customer_name: string | null;
  token_type: string;
  days_generated: { toString(): string } | number;
  token_count: number;
  status: string;
  is_valid: boolean;
  was_assigned: boolean;
  payment_id: number | null;
  created_at: Date;
  generated_by: string | null;
};

export function toTokenLog(r: TokenLogRow): TokenLog {
  return {
    id: r.id,
    token_value: r.token_value,
    serial_number: r.serial_number,
    customer_name: r.customer_name,
    token_type: r.token_type as TokenKind,
    days_generated: Number(r.days_generated.toString()),
    token_count: r.token_count,
    status: r.status,
    is_valid: r.is_valid,
    was_assigned: r.was_assigned,
    payment_id: r.payment_id,
    created_at: r.created_at.toISOString(),
    generated_by: r.generated_by,
  };
}
