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

/**
 * 254712345678 → '+254 712 345 678', as people read a number out: Kenya's and the MTN MoMo and Airtel Money markets'
 * whose mobile numbers have 9 digits after a 3-digit country code (Uganda 256, Rwanda 250, Zambia 260, Ghana 233,
 * Tanzania 255, Malawi 265, DR Congo 243, Congo-Brazzaville 242, Madagascar 261) alike. Anything else (an MTN sandbox
 * number, a market whose numbers are shorter or longer) as it is.
 */
export function formatRequestPhone(phone: string): string {
  const m = /^(254|256|250|260|233|255|265|243|242|261)(\d{3})(\d{3})(\d{3})$/.exec(phone);
  return m ? `+${m[1]} ${m[2]} ${m[3]} ${m[4]}` : phone;
}
