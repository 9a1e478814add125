import { Badge } from '@mantine/core';

const norm = (status: string | null | undefined) => (status ?? '').trim().toLowerCase();

/** Customer: active green, inactive red, anything else grey. */
export function customerStatusColor(status: string | null | undefined): string {
  const s = norm(status);
  return s === 'active' ? 'green' : s === 'inactive' ? 'red' : 'gray';
}

/** Payment: success or completed green, pending amber, anything else (failed) red. */
export function paymentStatusColor(status: string | null | undefined): string {
  const s = norm(status);
  if (s === 'success' || s === 'completed') return 'green';
  if (s === 'pending') return 'yellow';
  return 'red';
}

/**
 * Token: 'Success' when generation succeeded and the device still takes it,
 * 'Expired' once it no longer does (is_valid false: a newer set-time, unlock
 * or counter sync token, or 16 counts of newer tokens) or its status says
 * so, else 'Valid' or 'Invalid' from is_valid.
 */
export function tokenStatus(token: { status?: string | null; is_valid?: boolean | null }): {
  label: 'Success' | 'Expired' | 'Valid' | 'Invalid';
  color: 'green' | 'gray' | 'red';
} {
  const s = norm(token.status);
  if (s === 'expired' || (s === 'success' && token.is_valid === false)) return { label: 'Expired', color: 'gray' };
  if (s === 'success') return { label: 'Success', color: 'green' };
  if (token.is_valid === true || s === 'valid') return { label: 'Valid', color: 'green' };
  return { label: 'Invalid', color: 'red' };
}

const label = (status: string | null | undefined) => {
  const s = (status ?? '').trim();
  return s ? s.charAt(0).toUpperCase() + s.slice(1) : 'Unknown';
};

type StatusBadgeProps =
  | { kind: 'customer'; status: string | null | undefined }
  | { kind: 'payment'; status: string | null | undefined }
  | { kind: 'token'; status?: string | null; isValid?: boolean | null };

/** One status badge for customers, payments and tokens, coloured per spec §4. */
export function StatusBadge(props: StatusBadgeProps) {
  let color: string;
  let text: string;
  if (props.kind === 'token') {
    const t = tokenStatus({ status: props.status, is_valid: props.isValid });
    color = t.color;
    text = t.label;
  } else {
    color = props.kind === 'customer' ? customerStatusColor(props.status) : paymentStatusColor(props.status);
    text = label(props.status);
  }
  return (
    <Badge color={color} variant="light" radius="sm">
      {text}
    </Badge>
  );
}
