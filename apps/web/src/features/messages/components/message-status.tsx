import { Badge, Stack, Tooltip } from '@mantine/core';

const STATUS: Record<string, { color: string; label: string; hint: string }> = {
  received: { color: 'blue', label: 'Received', hint: 'Stored, being processed' },
  processed: { color: 'green', label: 'Processed', hint: 'Payment recorded and applied to a device' },
  duplicate: { color: 'gray', label: 'Duplicate', hint: 'This transaction was already recorded' },
  unmatched: { color: 'orange', label: 'Unmatched', hint: 'Payment recorded, but no device found for it' },
  unparsed: { color: 'red', label: 'Unparsed', hint: 'No payment could be read from this message' },
  rejected: { color: 'gray', label: 'Rejected', hint: 'Staff rejected its payment: it is never applied to a device' },
};

const DELIVERY: Record<string, { color: string; label: string }> = {
  queued: { color: 'yellow', label: 'Queued' },
  sending: { color: 'blue', label: 'Sending' },
  sent: { color: 'green', label: 'Sent' },
  failed: { color: 'red', label: 'Failed' },
};

/** What the receiver did with a message, and whether its reply SMS went out. */
export function MessageStatusBadges({ status, delivery }: { status: string; delivery: string }) {
  const s = STATUS[status] ?? { color: 'gray', label: status || 'Unknown', hint: '' };
  const d = DELIVERY[delivery];
  return (
    <Stack gap={4} align="flex-start">
      <Tooltip label={s.hint} disabled={!s.hint} withinPortal>
        <Badge miw="max-content" color={s.color} variant="light" radius="sm">
          {s.label}
        </Badge>
      </Tooltip>
      {d ? (
        <Tooltip label={`Reply SMS: ${d.label.toLowerCase()}`} withinPortal>
          <Badge miw="max-content" color={d.color} variant="outline" radius="sm" aria-label={`Reply SMS ${d.label.toLowerCase()}`}>
            SMS {d.label}
          </Badge>
        </Tooltip>
      ) : null}
    </Stack>
  );
}
