import { Button, Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { TokenText, tokenTypeLabel } from '@/components/ui/token-text';
import type { Ticket, TicketReply, TokenReply } from '../api/types';
import { freeDaysText } from './ticket-fields';

const daysText = (days: number) => (days === 1 ? '1 day' : `${days.toLocaleString()} days`);

/** The title of the view: "Code for 3 free days". */
export const freeDaysCodeTitle = (token: Pick<TokenReply, 'days'>) => `Code for ${freeDaysText(token.days)}`;

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed" fw={600} tt="uppercase">
        {label}
      </Text>
      <Text size="sm" fw={500} component="div">
        {children}
      </Text>
    </Stack>
  );
}

/**
 * After a ticket is resolved with free days: the add-time code made for them,
 * shown as the Tokens page shows a new one, for the staff member to give the
 * customer. It is also in the device's Token History, should this be closed
 * too soon.
 */
export function FreeDaysCode({ ticket, token, sms, onDone }: { ticket: Ticket; token: TokenReply; sms?: TicketReply['code_sms']; onDone: () => void }) {
  return (
    <Stack gap="md">
      <Text size="sm">
        Ticket #{ticket.ticket_id} is resolved. Give this code to {ticket.customer_name ?? 'the customer'}
        {ticket.customer_name && ticket.phone_number ? (
          <>
            {' '}
            (<span style={{ whiteSpace: 'nowrap' }}>{ticket.phone_number}</span>)
          </>
        ) : null}{' '}
        to enter on the device: it adds {daysText(token.days)} of use.
      </Text>
      <Paper withBorder p="md" radius="md" ta="center" bg="var(--mantine-color-default-hover)">
        <Text size="xs" c="dimmed" fw={600} tt="uppercase" mb={4}>
          Code
        </Text>
        <Group justify="center">
          <TokenText token={token.code_token} copyable fz={26} fw={700} data-testid="free-days-code" />
        </Group>
      </Paper>
      {sms ? (
        <Text size="sm" c="dimmed" data-testid="free-days-sms">
          Also texted to {sms.recipient_number}: “{sms.text}”
        </Text>
      ) : null}
      <SimpleGrid cols={3}>
        <Fact label="Type">{tokenTypeLabel(token.code_type)}</Fact>
        <Fact label="Days">{token.days}</Fact>
        <Fact label="Device">
          <Text span size="sm" fw={500} ff="monospace" style={{ overflowWrap: 'anywhere' }}>
            {token.serial_number}
          </Text>
        </Fact>
      </SimpleGrid>
      <Group justify="flex-end">
        <Button onClick={onDone} data-autofocus>
          Done
        </Button>
      </Group>
    </Stack>
  );
}
