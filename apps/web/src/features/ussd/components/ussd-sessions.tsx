import { Anchor, Badge, Button, Card, Group, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconDialpad } from '@tabler/icons-react';
import { USSD_OUTCOME_LABELS, type UssdOutcome, type UssdSession } from '@kidogo/contracts';
import { Link } from 'react-router-dom';
import { DataTable, type Column } from '@/components/ui/data-table';
import { DateText } from '@/components/ui/date-text';
import { ErrorAlert } from '@/components/ui/error-alert';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/api-client';
import { useUssdSessions } from '../api/get-ussd-sessions';

export const SESSIONS_LOAD_FAILED = 'Failed to load the USSD sessions';

/** Done what the customer came for green; turned away (not known, not sent, menu off) amber; only looked grey. */
const OUTCOME_COLORS: Record<UssdOutcome, string> = {
  menu: 'gray',
  balance: 'green',
  code: 'green',
  pay: 'green',
  pay_refused: 'yellow',
  ticket: 'blue',
  not_registered: 'yellow',
  not_identified: 'yellow',
  unavailable: 'yellow',
};

const dash = (
  <Text span size="sm" c="dimmed">
    —
  </Text>
);

// Three columns, each of two lines, so the table fits the half-width card: when and from which phone, who, and
// what came of it (with the device, ticket or payment request, and how many answers it took).
const COLUMNS: Column<UssdSession>[] = [
  {
    key: 'when',
    header: 'When',
    render: (s) => (
      <Stack gap={0}>
        <DateText value={s.started_at} withTime />
        <Text span size="xs" c="dimmed" ff="monospace" style={{ whiteSpace: 'nowrap' }}>
          {s.phone_number}
        </Text>
      </Stack>
    ),
  },
  {
    key: 'customer',
    header: 'Customer',
    render: (s) =>
      s.customer_id === null ? (
        dash
      ) : (
        <Anchor component={Link} to={paths.app.customerPaymentDetails.getHref(s.customer_id)} size="sm" fw={600}>
          {s.customer_name ?? `Customer ${s.customer_id}`}
        </Anchor>
      ),
  },
  {
    key: 'outcome',
    header: 'Outcome',
    render: (s) => (
      <Stack gap={2} align="flex-start">
        <Badge color={OUTCOME_COLORS[s.outcome]} variant="light" radius="sm" miw="max-content">
          {USSD_OUTCOME_LABELS[s.outcome]}
        </Badge>
        <Text size="xs" c="dimmed" lineClamp={2} title={s.detail ?? undefined} style={{ overflowWrap: 'anywhere' }}>
          {[s.detail, `${s.steps.toLocaleString()} ${s.steps === 1 ? 'answer' : 'answers'}`].filter(Boolean).join(' · ')}
        </Text>
      </Stack>
    ),
  },
];

/** Recent Sessions: who dialled, what they did and how it ended, newest first, 20 at a time (Load Older). */
export function UssdSessions() {
  return (
    <Stack gap="sm">
      <Title order={5}>Recent Sessions</Title>
      <UssdSessionsTable />
    </Stack>
  );
}

/**
 * A customer's sessions on the USSD menu, on their page: only there when they dialled it (or when they could not be
 * read), for the call where they say the menu did not work.
 */
export function CustomerUssdSessionsCard({ customerId }: { customerId: number }) {
  const sessions = useUssdSessions(customerId);
  const count = sessions.data?.pages[0]?.data.length ?? 0;
  if (sessions.isPending || (!sessions.isError && count === 0)) return null;
  return (
    <Card padding="lg" radius="md" mb="lg" role="region" aria-label="USSD Sessions">
      <Group gap="sm" mb="md" wrap="nowrap">
        <ThemeIcon variant="light" size={40} radius="md" aria-hidden>
          <IconDialpad size={22} />
        </ThemeIcon>
        <Stack gap={0}>
          <Title order={4}>USSD Sessions</Title>
          <Text size="sm" c="dimmed">
            Each time they dialled your USSD menu, newest first: what they asked for and what came of it
          </Text>
        </Stack>
      </Group>
      <UssdSessionsTable customerId={customerId} />
    </Card>
  );
}

/** The sessions' table, every one or one customer's (without the Customer column), 20 at a time (Load Older). */
function UssdSessionsTable({ customerId }: { customerId?: number }) {
  const sessions = useUssdSessions(customerId);
  const rows = sessions.data?.pages.flatMap((p) => p.data) ?? [];
  return (
    <Stack gap="sm">
      <DataTable
        caption={customerId === undefined ? 'Recent USSD sessions' : 'USSD sessions'}
        columns={customerId === undefined ? COLUMNS : COLUMNS.filter((c) => c.key !== 'customer')}
        rows={rows}
        rowKey={(s) => s.session_id}
        loading={sessions.isPending}
        // Rows already read stay on screen when an older page fails: that failure is told under them.
        error={sessions.isError && !sessions.data ? errorMessage(sessions.error, SESSIONS_LOAD_FAILED) : null}
        onRetry={() => void sessions.refetch()}
        emptyText="No one has dialled the menu yet."
        minWidth={420}
      />
      {sessions.isFetchNextPageError ? <ErrorAlert message={errorMessage(sessions.error, SESSIONS_LOAD_FAILED)} /> : null}
      {sessions.hasNextPage ? (
        <Group justify="center">
          <Button variant="default" loading={sessions.isFetchingNextPage} onClick={() => void sessions.fetchNextPage()}>
            Load Older
          </Button>
        </Group>
      ) : null}
    </Stack>
  );
}
