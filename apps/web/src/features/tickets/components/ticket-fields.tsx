import { Select, Text, type SelectProps } from '@mantine/core';
import { TICKET_CATEGORIES, TICKET_CATEGORY_LABELS } from '@kidogo/contracts';
import { errorMessage } from '@/lib/api-client';
import { useTicketAssignees } from '../api/get-ticket-assignees';
import type { Ticket } from '../api/types';

export const CATEGORY_CHOICES = TICKET_CATEGORIES.map((c) => ({ value: c, label: TICKET_CATEGORY_LABELS[c] }));

/** "Opened today", "1 day open", "12 days open": how long the customer has waited (or waited, once resolved). */
export const daysOpenText = (days: number) => (days <= 0 ? 'Opened today' : days === 1 ? '1 day open' : `${days.toLocaleString()} days open`);

/** "1 free day", "3 free days": given to the customer with a ticket's resolution. */
export const freeDaysText = (days: number) => (days === 1 ? '1 free day' : `${days.toLocaleString()} free days`);

/**
 * Assign To: the organization's active users, or nobody (cleared, it reads
 * Unassigned). `current` is the ticket's assignee, kept as a choice when it
 * is no longer among the active users, so the field does not read empty.
 */
export function AssigneeSelect({
  current = null,
  ...props
}: { current?: Ticket['assigned_to'] } & Omit<SelectProps, 'data' | 'label' | 'placeholder' | 'clearable'>) {
  const assignees = useTicketAssignees();
  const choices = (assignees.data ?? []).map((a) => ({ value: String(a.user_id), label: a.username }));
  if (current && !choices.some((c) => c.value === String(current.user_id))) {
    choices.push({ value: String(current.user_id), label: current.username });
  }
  return (
    <Select
      label="Assign To"
      placeholder="Unassigned"
      data={choices}
      clearable
      // Mantine hides the clear button from screen readers and the keyboard: here it is how a ticket goes back to nobody.
      clearButtonProps={{ 'aria-label': 'Unassign', 'aria-hidden': false, tabIndex: 0 }}
      searchable
      nothingFoundMessage="No user by that name"
      comboboxProps={{ withinPortal: true }}
      description={
        assignees.isError ? (
          <Text span size="xs" c="red">
            {errorMessage(assignees.error, 'Failed to load the team')}: the ticket can be assigned later.
          </Text>
        ) : (
          'Who will do the work; leave empty to decide later.'
        )
      }
      {...props}
    />
  );
}
