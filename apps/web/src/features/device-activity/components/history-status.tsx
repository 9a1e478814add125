import { Badge } from '@mantine/core';

const label = (s: string) => (s ? s.charAt(0).toUpperCase() + s.slice(1).replace(/_/g, ' ') : 'Pending');

/**
 * Spec §4: a token is success (green) or failed (red), anything else reads in
 * the pending style; a token the device no longer takes (`isValid` false) is
 * Expired (grey). A payment is completed (green), anything else pending-style.
 */
export function HistoryStatusBadge({
  status,
  kind,
  isValid,
}: {
  status: string | null | undefined;
  kind: 'token' | 'payment' | 'message';
  isValid?: boolean;
}) {
  const s = (status ?? '').trim().toLowerCase();
  let color = 'yellow';
  let text = label(s);
  if (kind === 'token' && isValid === false && s !== 'failed') {
    color = 'gray';
    text = 'Expired';
  } else if (kind === 'token') color = s === 'success' ? 'green' : s === 'failed' ? 'red' : 'yellow';
  else if (kind === 'payment') color = s === 'completed' || s === 'success' ? 'green' : s === 'failed' ? 'red' : 'yellow';
  else color = s === 'processed' ? 'green' : s === 'unparsed' ? 'red' : s === 'duplicate' ? 'gray' : 'yellow';
  return (
    <Badge miw="max-content" color={color} variant="light" radius="sm">
      {text}
    </Badge>
  );
}
