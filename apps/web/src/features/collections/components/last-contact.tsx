import { Badge, Stack, Text } from '@mantine/core';
import { CONTACT_OUTCOME_LABELS } from '@kidogo/contracts';
import dayjs from 'dayjs';
import { formatDate } from '@/components/ui/date-text';
import type { Contact, ContactOutcome, PromiseStatus } from '../api/types';

/**
 * Green for a promise, red for a refusal, gray when nobody useful was
 * reached, blue for the rest: the column reads at a glance which customers
 * are on their way to paying.
 */
export const OUTCOME_COLORS: Record<ContactOutcome, string> = {
  promised_to_pay: 'green',
  reached: 'blue',
  no_answer: 'gray',
  wrong_number: 'gray',
  refused: 'red',
  device_problem: 'blue',
  other: 'blue',
};

/** A calendar day (YYYY-MM-DD) as the user's locale writes it; read as a local day, so no time zone moves it. */
export function formatDay(day: string): string {
  // dayjs reads a bare YYYY-MM-DD as local midnight (Date would take it as UTC midnight).
  const d = dayjs(day);
  return /^\d{4}-\d{2}-\d{2}$/.test(day) && d.isValid() ? formatDate(d.toDate()) : day;
}

/**
 * A promise's badge by how it stands (the server's promise_status): broken
 * filled red, the one that needs a call; kept green; paid late gray; a
 * promise still open is "Promised to pay".
 */
const PROMISE_BADGES: Record<PromiseStatus, { label: string; color: string; filled?: boolean }> = {
  broken: { label: 'Promise broken', color: 'red', filled: true },
  kept: { label: 'Promise kept', color: 'green' },
  paid_late: { label: 'Paid late', color: 'gray' },
  due: { label: CONTACT_OUTCOME_LABELS.promised_to_pay, color: OUTCOME_COLORS.promised_to_pay },
  upcoming: { label: CONTACT_OUTCOME_LABELS.promised_to_pay, color: OUTCOME_COLORS.promised_to_pay },
};

export function OutcomeBadge({ contact }: { contact: Contact }) {
  const promise = contact.outcome === 'promised_to_pay' && contact.promise_status ? PROMISE_BADGES[contact.promise_status] : null;
  const label = promise?.label ?? CONTACT_OUTCOME_LABELS[contact.outcome];
  const color = promise?.color ?? OUTCOME_COLORS[contact.outcome];
  return (
    <Badge color={color} variant={promise?.filled ? 'filled' : 'light'} size="sm" radius="sm" miw="max-content">
      {label}
    </Badge>
  );
}

/** Under a promise's badge: when it was to be paid, or when it was. */
function promiseLine(contact: Contact): { text: string; red: boolean } | null {
  if (contact.outcome !== 'promised_to_pay' || !contact.promised_on) return null;
  const day = formatDay(contact.promised_on);
  switch (contact.promise_status) {
    case 'kept':
      return { text: contact.paid_at ? `Paid ${formatDate(contact.paid_at)}` : `Paid by ${day}`, red: false };
    case 'due':
      return { text: 'Pays today', red: false };
    case 'broken':
      return { text: `Was due ${day}`, red: true };
    case 'paid_late':
      return { text: `Was due ${day}`, red: false };
    default:
      return { text: `Pays by ${day}`, red: false };
  }
}

/** '24 Nov 2026 · amina'; the day alone once the user who logged it is deleted. */
export const loggedText = (contact: Contact, withTime = false) =>
  [formatDate(contact.created_at, withTime), contact.contacted_by].filter(Boolean).join(' · ');

/** The Collections table's Last Contact cell: what came of it, how a promise stands, when and by whom. */
export function LastContact({ contact }: { contact: Contact | null }) {
  if (!contact) {
    return (
      <Text span size="sm" c="dimmed">
        —
      </Text>
    );
  }
  const line = promiseLine(contact);
  return (
    <Stack gap={2} align="flex-start">
      <OutcomeBadge contact={contact} />
      {line ? (
        <Text size="xs" fw={500} c={line.red ? 'red' : undefined} style={{ whiteSpace: 'nowrap' }}>
          {line.text}
        </Text>
      ) : null}
      <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
        {loggedText(contact)}
      </Text>
    </Stack>
  );
}
