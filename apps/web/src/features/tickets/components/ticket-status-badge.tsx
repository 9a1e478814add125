import { Badge } from '@mantine/core';
import { TICKET_STATUS_LABELS } from '@kidogo/contracts';
import type { TicketStatus } from '../api/types';

/** Open is waiting for someone (warm), in progress is being worked on (blue), resolved is done (green). */
export const TICKET_STATUS_COLORS: Record<TicketStatus, string> = {
  open: 'orange',
  in_progress: 'blue',
  resolved: 'green',
};

export function TicketStatusBadge({ status }: { status: TicketStatus }) {
  return (
    <Badge color={TICKET_STATUS_COLORS[status]} variant="light" radius="sm" miw="max-content">
      {TICKET_STATUS_LABELS[status]}
    </Badge>
  );
}
