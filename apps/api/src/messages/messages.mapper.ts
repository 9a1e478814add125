import type { MessageRow } from '@kidogo/contracts';

export type MessageListRow = {
  id: number;
  received_message: string | null;
  forwarded_message: string | null;
  recipient_number: string | null;
  sender: string | null;
  amount: { toFixed(n: number): string } | null;
  received_at: Date;
  status: string;
  delivery_status: string;
  payment_id: number | null;
  transaction_code: string | null;
  note: string | null;
  sent_by: string | null;
};

export function toMessageRow(r: MessageListRow): MessageRow {
  return {
    id: r.id,
    Incoming: r.received_message,
    Outgoing: r.forwarded_message,
    'Phone No.': r.recipient_number ?? r.sender,
    sender: r.sender,
    recipient_number: r.recipient_number,
    amount: r.amount === null ? null : r.amount.toFixed(2),
    date: r.received_at.toISOString(),
    status: r.status as MessageRow['status'],
    delivery_status: r.delivery_status as MessageRow['delivery_status'],
    payment_id: r.payment_id,
    transaction_code: r.transaction_code,
    note: r.note,
    sent_by: r.sent_by,
  };
}
