import { Badge } from '@mantine/core';
import { PAYMENT_REQUEST_STATUS_LABELS, type PaymentRequestStatus } from '@kidogo/contracts';

/** Waiting amber, paid green, failed red; a prompt cancelled or left unanswered grey: nothing went wrong on our side. */
export const PAYMENT_REQUEST_STATUS_COLORS: Record<PaymentRequestStatus, string> = {
  pending: 'yellow',
  paid: 'green',
  cancelled: 'gray',
  failed: 'red',
  expired: 'gray',
};

export function PaymentRequestStatusBadge({ status }: { status: PaymentRequestStatus }) {
  return (
    <Badge color={PAYMENT_REQUEST_STATUS_COLORS[status]} variant="light" radius="sm" miw="max-content">
      {PAYMENT_REQUEST_STATUS_LABELS[status]}
    </Badge>
  );
}

/** 254712345678 → '+254 712 345 678', as people read a number out; anything else as it is. */
export function formatMpesaPhone(phone: string): string {
  const m = /^254(\d{3})(\d{3})(\d{3})$/.exec(phone);
  return m ? `+254 ${m[1]} ${m[2]} ${m[3]}` : phone;
}
