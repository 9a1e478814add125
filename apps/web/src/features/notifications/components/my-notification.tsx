import { Box, Text, ThemeIcon, VisuallyHidden } from '@mantine/core';
import {
  IconArrowBackUp,
  IconBell,
  IconCalendarDue,
  IconCalendarX,
  IconCashBanknote,
  IconCircleCheck,
  IconCoins,
  IconDeviceMobileDollar,
  IconDialpad,
  IconNote,
  IconUserCheck,
} from '@tabler/icons-react';
import type { UserNotificationKind } from '@kidogo/contracts';
import { formatDate, parseDate } from '@/components/ui/date-text';
import { paths } from '@/config/paths';
import { ticketsHref } from '@/features/tickets/routes/screen-params';
import { errorMessage } from '@/lib/api-client';
import { toast } from '@/lib/notify';
import type { UserNotification } from '../api/get-my-notifications';
import { useMarkNotificationsRead } from '../api/mark-notifications-read';

/**
 * One of the user's own notifications as the bell and the Notifications page
 * both show it: an icon for its kind, the message (bold while unread, with a
 * dot), when and by whom; clicked, it is read and leads where it is about.
 */

const KINDS: Record<UserNotificationKind, { icon: typeof IconBell; color: string }> = {
  ticket_assigned: { icon: IconUserCheck, color: 'blue' },
  ticket_resolved: { icon: IconCircleCheck, color: 'green' },
  ticket_reopened: { icon: IconArrowBackUp, color: 'orange' },
  ticket_noted: { icon: IconNote, color: 'grape' },
  promise_due: { icon: IconCalendarDue, color: 'blue' },
  promise_broken: { icon: IconCalendarX, color: 'red' },
  payments_held: { icon: IconCoins, color: 'yellow' },
  payment_request_answered: { icon: IconDeviceMobileDollar, color: 'teal' },
  cash_overdue: { icon: IconCashBanknote, color: 'orange' },
  ticket_reported: { icon: IconDialpad, color: 'red' },
};

export const MARK_READ_FAILED = 'Failed to mark notifications read';

/**
 * Where one leads: held payments to Messages (Held Payments), cash held too long to the collector's ledger on Cash in
 * Hand, else its ticket, else its device (a promise's, a payment request's), else nowhere.
 */
export function notificationHref(n: Pick<UserNotification, 'kind' | 'ticket_id' | 'serial_number' | 'collector'>): string | null {
  if (n.kind === 'payments_held') return paths.app.messages.getHref();
  if (n.kind === 'cash_overdue') return paths.app.cash.getHref(n.collector ?? undefined);
  if (n.ticket_id !== null) return ticketsHref({ ticket: n.ticket_id });
  if (n.serial_number) return paths.app.deviceActivity.getHref(n.serial_number);
  return null;
}

/** When, and by whom: under each line. */
export function Byline({ at, by }: { at: string; by: string | null }) {
  const date = parseDate(at);
  return (
    <Text size="xs" c="dimmed">
      {date ? <time dateTime={date.toISOString()}>{formatDate(date, true)}</time> : '—'}
      {by ? ` · ${by}` : ''}
    </Text>
  );
}

/** Its kind's icon, in colour while unread, grey once read. */
export function NotificationKindIcon({ n }: { n: UserNotification }) {
  const kind = KINDS[n.kind] ?? { icon: IconBell, color: 'blue' };
  const Icon = kind.icon;
  return (
    <ThemeIcon variant="light" color={n.read_at === null ? kind.color : 'gray'} size="sm" radius="xl">
      <Icon size={14} />
    </ThemeIcon>
  );
}

/** The dot of an unread one (null once read). */
export function UnreadDot({ n }: { n: UserNotification }) {
  return n.read_at === null ? <Box w={8} h={8} bg="blue.6" style={{ borderRadius: '50%', flex: 'none' }} aria-hidden /> : null;
}

/** Its message, bold (and named "Unread:" to a screen reader) while unread, over when and by whom. */
export function NotificationText({ n, lineClamp }: { n: UserNotification; lineClamp?: number }) {
  const unread = n.read_at === null;
  return (
    <>
      <Text size="sm" fw={unread ? 600 : 400} lineClamp={lineClamp}>
        {unread ? <VisuallyHidden>Unread: </VisuallyHidden> : null}
        {n.message}
      </Text>
      <Byline at={n.created_at} by={n.actor} />
    </>
  );
}

/**
 * Marking read, as the bell and the page do it: `markRead(ids)` (no ids: all),
 * and `open(n)` for a clicked one (read already: nothing to send). A failure is a toast.
 */
export function useMarkRead() {
  const mark = useMarkNotificationsRead();
  const markRead = (ids?: number[]) =>
    mark.mutate(ids ? { ids } : {}, { onError: (e) => void toast.error(errorMessage(e, MARK_READ_FAILED)) });
  const open = (n: UserNotification) => (n.read_at === null ? markRead([n.id]) : undefined);
  /** Mark All as Read is on its way. */
  const markingAll = mark.isPending && !mark.variables?.ids;
  return { markRead, open, markingAll };
}
