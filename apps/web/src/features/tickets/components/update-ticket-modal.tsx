import { Anchor, Button, Group, Modal, Paper, Select, SimpleGrid, Stack, Text, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMediaQuery } from '@mantine/hooks';
import { TICKET_RESOLUTION_MAX, TICKET_STATUS_LABELS, TICKET_STATUSES, ZTicketUpdateSchema } from '@kidogo/contracts';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { formatDate } from '@/components/ui/date-text';
import { ErrorAlert } from '@/components/ui/error-alert';
import { paths } from '@/config/paths';
import { apiFieldErrors, errorMessage } from '@/lib/api-client';
import { toast } from '@/lib/notify';
import { labelledFieldErrors, schemaErrors } from '@/lib/validation';
import { useUpdateTicket } from '../api/update-ticket';
import type { Ticket, TicketCategory, TicketStatus, TicketUpdate } from '../api/types';
import { AssigneeSelect, CATEGORY_CHOICES, daysOpenText } from './ticket-fields';

export const UPDATE_FAILED = 'Failed to update the ticket';

/** The form's labels: client-side and server messages read "Resolution is required to resolve a ticket". */
export const UPDATE_TICKET_LABELS = {
  status: 'Status',
  category: 'Category',
  assigned_to: 'Assign To',
  resolution: 'Resolution',
};
type Field = keyof typeof UPDATE_TICKET_LABELS;

/** The server's words for a resolution left out, after the field's label. */
export const RESOLUTION_REQUIRED = 'is required to resolve a ticket';

export interface UpdateTicketValues {
  status: TicketStatus;
  category: TicketCategory;
  /** A user id as the select gives it; null for nobody. */
  assigned_to: string | null;
  resolution: string;
}

const STATUS_CHOICES = TICKET_STATUSES.map((s) => ({ value: s, label: TICKET_STATUS_LABELS[s] }));

export const updateValuesOf = (t: Ticket): UpdateTicketValues => ({
  status: t.status,
  category: t.category,
  assigned_to: t.assigned_to ? String(t.assigned_to.user_id) : null,
  resolution: t.resolution ?? '',
});

/**
 * The request body: what changed, nothing else. The resolution goes with a
 * resolved status only (the field is hidden otherwise), when it differs
 * from the one the ticket has.
 */
export function toTicketUpdate(t: Ticket, v: UpdateTicketValues): TicketUpdate {
  const assignee = v.assigned_to ? Number(v.assigned_to) : null;
  const resolution = v.resolution.trim();
  return {
    ...(v.status !== t.status ? { status: v.status } : {}),
    ...(v.category !== t.category ? { category: v.category } : {}),
    ...(assignee !== (t.assigned_to?.user_id ?? null) ? { assigned_to: assignee } : {}),
    ...(v.status === 'resolved' && resolution !== (t.resolution ?? '') ? { resolution } : {}),
  };
}

/** The contract's rules (ZTicketUpdateSchema) in the form's words, and the resolution a resolved ticket needs. */
export function validateUpdateTicket(t: Ticket, v: UpdateTicketValues): Partial<Record<Field, string>> {
  if (v.status === 'resolved' && !v.resolution.trim()) return { resolution: `${UPDATE_TICKET_LABELS.resolution} ${RESOLUTION_REQUIRED}` };
  const input = toTicketUpdate(t, v);
  // Nothing changed is not an error: Save then just closes.
  return Object.keys(input).length ? schemaErrors(ZTicketUpdateSchema, input, UPDATE_TICKET_LABELS) : {};
}

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed" fw={600} tt="uppercase" lts={0.3}>
        {label}
      </Text>
      <Text size="sm" component="div">
        {children}
      </Text>
    </Stack>
  );
}

/** What the ticket is about: the device, its customer, the report, and who opened it when. */
function TicketDetails({ ticket }: { ticket: Ticket }) {
  return (
    <Paper withBorder p="sm" radius="md" bg="var(--kidogo-section-bg)">
      <Stack gap="sm">
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm" verticalSpacing="sm">
          <Detail label="Device">
            <Anchor component={Link} to={paths.app.deviceActivity.getHref(ticket.serial_number)} size="sm" fw={600} ff="monospace">
              {ticket.serial_number}
            </Anchor>
            <Text size="xs" c="dimmed">
              {ticket.product_name}
            </Text>
          </Detail>
          <Detail label="Customer">
            {ticket.customer_id !== null && ticket.customer_name ? (
              <Anchor component={Link} to={paths.app.customerPaymentDetails.getHref(ticket.customer_id)} size="sm" fw={600}>
                {ticket.customer_name}
              </Anchor>
            ) : (
              <Text span size="sm" c="dimmed">
                No customer
              </Text>
            )}
            {ticket.phone_number ? (
              <Text size="xs" c="dimmed">
                {ticket.phone_number}
              </Text>
            ) : null}
          </Detail>
          <Detail label="Opened">
            <div>
              {formatDate(ticket.opened_at, true)}
              {ticket.opened_by ? ` by ${ticket.opened_by}` : ''}
            </div>
            <Text size="xs" c="dimmed">
              {ticket.resolved_at ? `Resolved ${formatDate(ticket.resolved_at, true)}` : daysOpenText(ticket.days_open)}
            </Text>
          </Detail>
        </SimpleGrid>
        <Detail label="Description">
          <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {ticket.description}
          </Text>
        </Detail>
      </Stack>
    </Paper>
  );
}

function UpdateTicketForm({
  ticket,
  update,
  onDone,
  onCancel,
}: {
  ticket: Ticket;
  update: ReturnType<typeof useUpdateTicket>;
  onDone: () => void;
  onCancel: () => void;
}) {
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<UpdateTicketValues>({
    mode: 'controlled',
    initialValues: updateValuesOf(ticket),
    validate: (v) => validateUpdateTicket(ticket, v),
    onValuesChange: () => setFailure(null),
  });
  const resolving = form.values.status === 'resolved';
  const resolutionLength = form.values.resolution.trim().length;

  const submit = form.onSubmit((values) => {
    if (update.isPending) return;
    const input = toTicketUpdate(ticket, values);
    if (Object.keys(input).length === 0) {
      onDone();
      return;
    }
    setFailure(null);
    update.mutate(
      { ticketId: ticket.ticket_id, input },
      {
        onSuccess: (saved) => {
          toast.success(
            saved.status !== ticket.status ? `Ticket #${saved.ticket_id} is now ${TICKET_STATUS_LABELS[saved.status].toLowerCase()}` : `Ticket #${saved.ticket_id} updated`,
          );
          onDone();
        },
        onError: (error) => {
          // A 400 names its field (a resolution left out, a user not of the organization): under its input.
          // Every other refusal (404, the ticket is gone) goes in the red box, as the API words it.
          const fields = apiFieldErrors(error);
          const shown = labelledFieldErrors(fields, UPDATE_TICKET_LABELS);
          form.setErrors(shown);
          const unshown = Object.keys(fields).some((f) => !(f in shown));
          setFailure(Object.keys(shown).length && !unshown ? null : errorMessage(error, UPDATE_FAILED));
        },
      },
    );
  });

  return (
    <form onSubmit={submit} noValidate aria-label={`Update Ticket #${ticket.ticket_id}`}>
      <Stack gap="md">
        <TicketDetails ticket={ticket} />
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
          <Select
            label={UPDATE_TICKET_LABELS.status}
            data={STATUS_CHOICES}
            allowDeselect={false}
            comboboxProps={{ withinPortal: true }}
            data-autofocus
            {...form.getInputProps('status')}
          />
          <Select
            label={UPDATE_TICKET_LABELS.category}
            data={CATEGORY_CHOICES}
            allowDeselect={false}
            comboboxProps={{ withinPortal: true }}
            {...form.getInputProps('category')}
          />
        </SimpleGrid>
        <AssigneeSelect current={ticket.assigned_to} {...form.getInputProps('assigned_to')} />
        {resolving ? (
          <Textarea
            label={UPDATE_TICKET_LABELS.resolution}
            withAsterisk
            placeholder="What was done: a part replaced, a code sent again, the bill explained"
            autosize
            minRows={3}
            maxRows={8}
            description={
              <Text span size="xs" c={resolutionLength > TICKET_RESOLUTION_MAX ? 'red' : 'dimmed'}>
                {resolutionLength} / {TICKET_RESOLUTION_MAX}
              </Text>
            }
            inputWrapperOrder={['label', 'input', 'description', 'error']}
            {...form.getInputProps('resolution')}
          />
        ) : null}
        {failure ? <ErrorAlert title={UPDATE_FAILED} message={failure} /> : null}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel} disabled={update.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={update.isPending}>
            Save
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * Update Ticket: the ticket's details, then its status, category, assignee
 * and, to resolve it, what was done. The last ticket shown stays while the
 * modal closes, so its title does not empty during the transition; the form
 * mounts afresh for each ticket.
 */
export function UpdateTicketModal({ ticket, onClose }: { ticket: Ticket | null; onClose: () => void }) {
  const phone = useMediaQuery('(max-width: 48em)');
  const update = useUpdateTicket();
  const [shown, setShown] = useState<Ticket | null>(ticket);
  if (ticket !== null && ticket !== shown) setShown(ticket);

  const close = () => {
    if (update.isPending) return;
    update.reset();
    onClose();
  };

  return (
    <Modal
      opened={ticket !== null}
      onClose={close}
      title={shown ? `Ticket #${shown.ticket_id}` : 'Ticket'}
      size="lg"
      fullScreen={phone}
      closeOnClickOutside={!update.isPending}
    >
      {shown ? (
        <UpdateTicketForm
          key={shown.ticket_id}
          ticket={shown}
          update={update}
          onDone={() => {
            update.reset();
            onClose();
          }}
          onCancel={close}
        />
      ) : null}
    </Modal>
  );
}
