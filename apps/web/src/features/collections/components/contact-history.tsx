import { Group, Skeleton, Stack, Text, Timeline, Title } from '@mantine/core';
import { ErrorAlert } from '@/components/ui/error-alert';
import { errorMessage } from '@/lib/api-client';
import { useContacts } from '../api/get-contacts';
import { formatDay, loggedText, OUTCOME_COLORS, OutcomeBadge } from './last-contact';

export const HISTORY_FAILED = 'Failed to load previous contacts';

/**
 * The device's earlier calls and visits with its current customer, newest
 * first: whoever calls next sees what was said and promised before.
 */
export function ContactHistory({ itemId }: { itemId: number }) {
  const contacts = useContacts(itemId);
  return (
    <Stack gap="sm" component="section" aria-labelledby="contact-history-title">
      <Title order={4} id="contact-history-title" fz="sm" fw={600}>
        Previous contacts
      </Title>
      {contacts.isPending ? (
        <Stack gap="xs" role="status" aria-label="Loading previous contacts">
          <Skeleton h={40} />
          <Skeleton h={40} />
        </Stack>
      ) : contacts.isError ? (
        <ErrorAlert
          title={HISTORY_FAILED}
          message={errorMessage(contacts.error, HISTORY_FAILED)}
          onRetry={() => void contacts.refetch()}
          retrying={contacts.isFetching}
        />
      ) : contacts.data.length === 0 ? (
        <Text size="sm" c="dimmed">
          No contacts logged yet.
        </Text>
      ) : (
        // Every item active: each bullet takes its outcome's colour, as the badges do.
        <Timeline bulletSize={12} lineWidth={2} active={contacts.data.length - 1} role="list" aria-label="Previous contacts">
          {contacts.data.map((c) => (
            <Timeline.Item
              key={c.contact_id}
              role="listitem"
              color={OUTCOME_COLORS[c.outcome]}
              title={
                <Group gap={8} wrap="wrap">
                  <OutcomeBadge contact={c} />
                  <Text span size="xs" c="dimmed">
                    {loggedText(c, true)}
                  </Text>
                </Group>
              }
            >
              {c.outcome === 'promised_to_pay' && c.promised_on ? (
                <Text size="xs" fw={500} mt={2}>
                  Promised for {formatDay(c.promised_on)}
                </Text>
              ) : null}
              {c.note ? (
                <Text size="sm" mt={2} style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                  {c.note}
                </Text>
              ) : null}
            </Timeline.Item>
          ))}
        </Timeline>
      )}
    </Stack>
  );
}
