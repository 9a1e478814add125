import { Anchor, Button, Checkbox, Group, Modal, NumberInput, Paper, Select, SimpleGrid, Stack, Text, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMediaQuery } from '@mantine/hooks';
import { TICKET_MAX_COMPENSATION_DAYS, TICKET_RESOLUTION_MAX, TICKET_STATUS_LABELS, TICKET_STATUSES, ZTicketUpdateSchema } from '@kidogo/contracts';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { formatDate } from '@/components/ui/date-text';
import { ErrorAlert } from '@/components/ui/error-alert';
import { paths } from '@/config/paths';
import { apiFieldErrors } from '@/lib/api-client';
import { toast } from '@/lib/notify';
import { labelledFieldErrors, refusalBeside, schemaErrors } from '@/lib/validation';
import { useUpdateTicket } from '../api/update-ticket';
import type { Ticket, TicketCategory, TicketReply, TicketStatus, TicketUpdate } from '../api/types';
import { freeDaysCodeTitle, FreeDaysCode } from './free-days-code';
import { TicketHistory } from './ticket-history';
import { WarrantyBadge, warrantyTerm } from '@/features/warranties/components/device-warranty';
import { AssigneeSelect, CATEGORY_CHOICES, daysOpenText } from './ticket-fields';

export const UPDATE_FAILED = 'Failed to update the ticket';

/** The form's labels: client-side and server messages read "Resolution is required to resolve a ticket". */
export const UPDATE_TICKET_LABELS = {
  status: 'Status',
  category: 'Category',
  assigned_to: 'Assign To',
  resolution: 'Resolution',
  compensation_days: 'Free Days',
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
  /** Free days to give with the resolution, as the number input gives them: '' for none. */
  compensation_days: number | string;
  /** Also text the free days' code to the customer's phone. */
  send_code_sms: boolean;
}

const STATUS_CHOICES = TICKET_STATUSES.map((s) => ({ value: s, label: TICKET_STATUS_LABELS[s] }));

export const updateValuesOf = (t: Ticket): UpdateTicketValues => ({
  status: t.status,
  category: t.category,
  assigned_to: t.assigned_to ? String(t.assigned_to.user_id) : null,
  resolution: t.resolution ?? '',
  compensation_days: '',
  send_code_sms: false,
});

/**
 * Free days go with resolving a ticket, once: not for one already resolved
 * (those are given on the Tokens page), nor for a device that had nobody to
 * give them to.
 */
export const offersFreeDays = (t: Ticket, v: Pick<UpdateTicketValues, 'status'>) => v.status === 'resolved' && t.status !== 'resolved' && t.customer_id !== null;

/**
 * The request body: what changed, nothing else. The resolution goes with a
 * resolved status only (the field is hidden otherwise), when it differs
 * from the one the ticket has; free days when they are offered and filled in.
 */
export function toTicketUpdate(t: Ticket, v: UpdateTicketValues): TicketUpdate {
  const assignee = v.assigned_to ? Number(v.assigned_to) : null;
  const resolution = v.resolution.trim();
  return {
    ...(v.status !== t.status ? { status: v.status } : {}),
    ...(v.category !== t.category ? { category: v.category } : {}),
    ...(assignee !== (t.assigned_to?.user_id ?? null) ? { assigned_to: assignee } : {}),
    ...(v.status === 'resolved' && resolution !== (t.resolution ?? '') ? { resolution } : {}),
    ...(offersFreeDays(t, v) && typeof v.compensation_days === 'number'
      ? { compensation_days: v.compensation_days, ...(v.send_code_sms && t.phone_number ? { send_code_sms: true } : {}) }
      : {}),
  };
}

/** The contract's rules (ZTicketUpdateSchema) in the form's words, and the resolution a resolved ticket needs. */
export function validateUpdateTicket(t: Ticket, v: UpdateTicketValues): Partial<Record<Field, string>> {
  const input = toTicketUpdate(t, v);
  // Nothing changed is not an error: Save then just closes.
  const errors = Object.keys(input).length ? schemaErrors(ZTicketUpdateSchema, input, UPDATE_TICKET_LABELS) : {};
  if (v.status === 'resolved' && !v.resolution.trim()) {
    // Without its resolution the body can read as "nothing to change": only the free days' own problem is kept.
    const { compensation_days } = errors;
    return { resolution: `${UPDATE_TICKET_LABELS.resolution} ${RESOLUTION_REQUIRED}`, ...(compensation_days ? { compensation_days } : {}) };
  }
  return errors;
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
            {ticket.compensation_days !== null ? (
              <Text size="xs" c="dimmed">
                Free days given: {ticket.compensation_days}
              </Text>
            ) : null}
          </Detail>
          {ticket.warranty ? (
            <Detail label="Warranty">
              <WarrantyBadge warranty={ticket.warranty} />
              <Text size="xs" c="dimmed">
                When the ticket was opened · {warrantyTerm(ticket.warranty)}
              </Text>
            </Detail>
          ) : null}
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
  /** Saved (the reply), or closed with nothing to save. */
  onDone: (reply?: TicketReply) => void;
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
  const freeDays = offersFreeDays(ticket, form.values);

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
        onSuccess: (reply) => {
          const saved = reply.data;
          // With a code, the code's view says the ticket is resolved.
          if (!reply.token) {
            toast.success(
              saved.status !== ticket.status ? `Ticket #${saved.ticket_id} is now ${TICKET_STATUS_LABELS[saved.status].toLowerCase()}` : `Ticket #${saved.ticket_id} updated`,
            );
          }
          onDone(reply);
        },
        onError: (error) => {
          // A 400 names its field (a resolution left out, free days out of range, a user not of the organization):
          // under its input. Every other refusal (404, the ticket is gone; 409, no free days for this device or a
          // ticket resolved meanwhile) goes in the red box, as the API words it.
          const fields = apiFieldErrors(error);
          const shown = labelledFieldErrors(fields, UPDATE_TICKET_LABELS);
          form.setErrors(shown);
          setFailure(refusalBeside(error, fields, shown, UPDATE_FAILED));
        },
      },
    );
  });

  return (
    <form onSubmit={submit} noValidate aria-label={`Update Ticket #${ticket.ticket_id}`}>
      <Stack gap="md">
        <TicketDetails ticket={ticket} />
        <TicketHistory ticketId={ticket.ticket_id} />
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
        {freeDays ? (
          <NumberInput
            label={UPDATE_TICKET_LABELS.compensation_days}
            description="Days of use given for the time the device was down; a code for them is made when you save"
            placeholder="None"
            min={1}
            max={TICKET_MAX_COMPENSATION_DAYS}
            step={1}
            allowDecimal={false}
            allowNegative={false}
            // Out of range is said under the field, in the server's words, not silently corrected.
            clampBehavior="none"
            // As wide as Status above it; the description keeps the full width.
            styles={{ wrapper: { maxWidth: 'calc(50% - var(--mantine-spacing-md) / 2)' } }}
            {...form.getInputProps('compensation_days')}
          />
        ) : null}
        {freeDays && ticket.phone_number && typeof form.values.compensation_days === 'number' ? (
          <Checkbox
            label={`Text the code to ${ticket.customer_name ?? 'the customer'} (${ticket.phone_number})`}
            description="In the reply language of your SMS settings; it goes even to a customer who asked for no texts, as their payment codes do"
            {...form.getInputProps('send_code_sms', { type: 'checkbox' })}
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
 * Update Ticket: the ticket's details and history, then its status, category, assignee
 * and, to resolve it, what was done and the free days given for it. Saved
 * with free days, the modal then shows their code, to give the customer.
 * The last ticket (and code) shown stays while the modal closes, so it does
 * not change during the transition; the form mounts afresh for each ticket.
 */
export function UpdateTicketModal({ ticket, onClose }: { ticket: Ticket | null; onClose: () => void }) {
  const phone = useMediaQuery('(max-width: 48em)');
  const update = useUpdateTicket();
  const [shown, setShown] = useState<Ticket | null>(ticket);
  const [code, setCode] = useState<{ ticket: Ticket; token: NonNullable<TicketReply['token']>; sms: TicketReply['code_sms'] } | null>(null);
  const [opened, setOpened] = useState(ticket !== null);
  if (ticket !== null && ticket !== shown) setShown(ticket);
  if ((ticket !== null) !== opened) {
    setOpened(ticket !== null);
    if (ticket !== null) setCode(null);
  }

  const close = () => {
    if (update.isPending) return;
    update.reset();
    onClose();
  };

  return (
    <Modal
      opened={ticket !== null}
      onClose={close}
      title={code ? freeDaysCodeTitle(code.token) : shown ? `Ticket #${shown.ticket_id}` : 'Ticket'}
      size={code ? 'md' : 'lg'}
      fullScreen={phone}
      // A stray click must not lose the code before it is given (it stays in the device's Token History).
      closeOnClickOutside={!update.isPending && !code}
    >
      {code ? (
        <FreeDaysCode ticket={code.ticket} token={code.token} sms={code.sms} onDone={close} />
      ) : shown ? (
        <UpdateTicketForm
          key={shown.ticket_id}
          ticket={shown}
          update={update}
          onDone={(reply) => {
            update.reset();
            if (reply?.token) setCode({ ticket: reply.data, token: reply.token, sms: reply.code_sms });
            else onClose();
          }}
          onCancel={close}
        />
      ) : null}
    </Modal>
  );
}
