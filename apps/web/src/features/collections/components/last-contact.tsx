import { Badge, Stack, Text } from '@mantine/core';
import { CONTACT_OUTCOME_LABELS } from '@kidogo/contracts';
import dayjs from 'dayjs';
import { formatDate } from '@/components/ui/date-text';
import type { Contact, ContactOutcome } from '../api/types';

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

/**
 * Today as YYYY-MM-DD in the browser's time zone. The server checks
 * promised days against the installation's business day; the two differ
 * only around midnight, and then the server's 400 says so on the field.
 */
export const localToday = () => dayjs().format('YYYY-MM-DD');

/** A calendar day (YYYY-MM-DD) as the user's locale writes it; read as a local day, so no time zone moves it. */
export function formatDay(day: string): string {
  // dayjs reads a bare YYYY-MM-DD as local midnight (Date would take it as UTC midnight).
  const d = dayjs(day);
  return /^\d{4}-\d{2}-\d{2}$/.test(day) && d.isValid() ? formatDate(d.toDate()) : day;
}

/**
 * The promise's day has passed and the device is still out of credit (it is
 * on this list): the customer did not pay as promised.
 */
export const isBrokenPromise = (contact: Contact, today: string) =>
  contact.outcome === 'promised_to_pay' && contact.promised_on !== null && contact.promised_on < today;

export function OutcomeBadge({ contact, broken = false }: { contact: Contact; broken?: boolean }) {
  return (
    <Badge color={broken ? 'red' : OUTCOME_COLORS[contact.outcome]} variant={broken ? 'filled' : 'light'} size="sm" radius="sm" miw="max-content">
      {broken ? 'Promise broken' : CONTACT_OUTCOME_LABELS[contact.outcome]}
    </Badge>
  );
}

/** '24 Nov 2026 · amina'; the day alone once the user who logged it is deleted. */
export const loggedText = (contact: Contact, withTime = false) =>
  [formatDate(contact.created_at, withTime), contact.contacted_by].filter(Boolean).join(' · ');

/** The Collections table's Last Contact cell: what came of it, when the customer said they would pay, when and by whom. */
export function LastContact({ contact, today }: { contact: Contact | null; today: string }) {
  if (!contact) {
    return (
      <Text span size="sm" c="dimmed">
        —
      </Text>
    );
  }
  const broken = isBrokenPromise(contact, today);
  return (
    <Stack gap={2} align="flex-start">
      <OutcomeBadge contact={contact} broken={broken} />
      {contact.outcome === 'promised_to_pay' && contact.promised_on ? (
        <Text size="xs" fw={500} c={broken ? 'red' : undefined} style={{ whiteSpace: 'nowrap' }}>
          {broken ? `Was to pay by ${formatDay(contact.promised_on)}` : `Pays by ${formatDay(contact.promised_on)}`}
        </Text>
      ) : null}
      <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
        {loggedText(contact)}
      </Text>
    </Stack>
  );
}
