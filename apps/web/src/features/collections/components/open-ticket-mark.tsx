import { Badge, Tooltip } from '@mantine/core';
import { IconTool } from '@tabler/icons-react';
import { Link } from 'react-router-dom';
import { TICKET_CATEGORY_LABELS, TICKET_STATUS_LABELS } from '@kidogo/contracts';
import { paths } from '@/config/paths';
import type { CollectionAccount } from '../api/types';

/**
 * A device out of credit with a service ticket not yet resolved: its customer
 * may have stopped paying because it does not work. Links to the device's
 * page, where its tickets are.
 */
export function OpenTicketMark({ account }: { account: CollectionAccount }) {
  const ticket = account.open_ticket!;
  return (
    <Tooltip label={`${TICKET_CATEGORY_LABELS[ticket.category]}: fix the device before asking for payment`} withArrow multiline w={240}>
      <Badge
        component={Link}
        to={paths.app.deviceActivity.getHref(account.serial_number)}
        variant="light"
        color="orange"
        size="sm"
        leftSection={<IconTool size={12} />}
        style={{ cursor: 'pointer', textTransform: 'none' }}
        aria-label={`Ticket #${ticket.ticket_id} ${TICKET_STATUS_LABELS[ticket.status].toLowerCase()} for ${account.serial_number}`}
      >
        Ticket #{ticket.ticket_id} · {TICKET_STATUS_LABELS[ticket.status]}
      </Badge>
    </Tooltip>
  );
}
