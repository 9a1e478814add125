import { Button, Group, Modal, Select, Stack, Text, Textarea, TextInput, type ButtonProps } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMediaQuery } from '@mantine/hooks';
import { IconPlus } from '@tabler/icons-react';
import { TICKET_DESCRIPTION_MAX, ZTicketInputSchema } from '@kidogo/contracts';
import { useState } from 'react';
import { ErrorAlert } from '@/components/ui/error-alert';
import { ApiError, apiFieldErrors, errorMessage } from '@/lib/api-client';
import { toast } from '@/lib/notify';
import { labelledFieldErrors, refusalBeside, schemaErrors } from '@/lib/validation';
import { useOpenTicket } from '../api/open-ticket';
import type { Ticket, TicketCategory, TicketInput } from '../api/types';
import { AssigneeSelect, CATEGORY_CHOICES } from './ticket-fields';

export const OPEN_FAILED = 'Failed to open the ticket';

/** The form's labels: client-side and server messages read "Description is required". */
export const OPEN_TICKET_LABELS = {
  serial_number: 'Serial Number',
  category: 'Category',
  description: 'Description',
  assigned_to: 'Assign To',
};
type Field = keyof typeof OPEN_TICKET_LABELS;

/** A device the ticket can be for, when the serial number is chosen from a few (a customer's). */
export interface TicketDevice {
  serial_number: string;
  product_name: string;
}

export interface OpenTicketValues {
  serial_number: string;
  category: TicketCategory | null;
  description: string;
  /** A user id as the select gives it; null for nobody yet. */
  assigned_to: string | null;
}

/** The request body: trimmed text, the assignee only when there is one. */
export function toTicketInput(v: OpenTicketValues): TicketInput {
  return {
    serial_number: v.serial_number.trim(),
    category: v.category as TicketCategory,
    description: v.description.trim(),
    ...(v.assigned_to ? { assigned_to: Number(v.assigned_to) } : {}),
  };
}

/** The contract's rules (ZTicketInputSchema) in the form's words; no category yet reads "Category is required", not the list of values. */
export function validateOpenTicket(v: OpenTicketValues): Partial<Record<Field, string>> {
  const errors = schemaErrors(ZTicketInputSchema, toTicketInput(v), OPEN_TICKET_LABELS);
  if (!v.category) errors.category = `${OPEN_TICKET_LABELS.category} is required`;
  return errors;
}

/** A device among the choices: its serial number, and what it is. */
function DeviceOption({ serialNumber, productName }: { serialNumber: string; productName: string | undefined }) {
  return (
    <Stack gap={0}>
      <Text size="sm" ff="monospace" fw={600}>
        {serialNumber}
      </Text>
      {productName ? (
        <Text size="xs" c="dimmed">
          {productName}
        </Text>
      ) : null}
    </Stack>
  );
}

function OpenTicketForm({
  serialNumber,
  devices,
  opening,
  onOpened,
  onCancel,
}: {
  serialNumber: string | null;
  devices: readonly TicketDevice[] | null;
  opening: ReturnType<typeof useOpenTicket>;
  onOpened: (ticket: Ticket) => void;
  onCancel: () => void;
}) {
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<OpenTicketValues>({
    mode: 'controlled',
    initialValues: { serial_number: serialNumber ?? '', category: null, description: '', assigned_to: null },
    validate: validateOpenTicket,
    onValuesChange: () => setFailure(null),
  });
  const descriptionLength = form.values.description.trim().length;
  const productNames = new Map(devices?.map((d) => [d.serial_number, d.product_name]));

  const submit = form.onSubmit((values) => {
    if (opening.isPending) return;
    setFailure(null);
    opening.mutate(toTicketInput(values), {
      onSuccess: onOpened,
      onError: (error) => {
        // A 400 names its field: the message goes under its input. An unknown serial number (404) goes under the
        // serial number when it was typed or chosen here; the rest (a fixed device's refusal, other statuses) goes in the
        // red box, as the API words it.
        const fields = apiFieldErrors(error);
        const shown = labelledFieldErrors(fields, OPEN_TICKET_LABELS);
        if (serialNumber !== null) delete shown.serial_number;
        else if (error instanceof ApiError && error.status === 404) shown.serial_number = errorMessage(error);
        form.setErrors(shown);
        setFailure(refusalBeside(error, fields, shown, OPEN_FAILED));
      },
    });
  });

  return (
    <form onSubmit={submit} noValidate aria-label="New Ticket">
      <Stack gap="md">
        {serialNumber !== null ? (
          <TextInput label={OPEN_TICKET_LABELS.serial_number} value={serialNumber} readOnly variant="filled" ff="monospace" />
        ) : devices !== null ? (
          <Select
            label={OPEN_TICKET_LABELS.serial_number}
            withAsterisk
            placeholder="Which of the customer's devices?"
            data={devices.map((d) => ({ value: d.serial_number, label: d.serial_number }))}
            renderOption={({ option }) => <DeviceOption serialNumber={option.value} productName={productNames.get(option.value)} />}
            allowDeselect={false}
            comboboxProps={{ withinPortal: true }}
            data-autofocus
            {...form.getInputProps('serial_number')}
            // The select's "nothing chosen" is null; the form keeps '' so the contract says "is required".
            value={form.values.serial_number || null}
            onChange={(value) => form.setFieldValue('serial_number', value ?? '')}
          />
        ) : (
          <TextInput
            label={OPEN_TICKET_LABELS.serial_number}
            withAsterisk
            placeholder="The device's serial number"
            data-autofocus
            {...form.getInputProps('serial_number')}
          />
        )}
        <Select
          label={OPEN_TICKET_LABELS.category}
          withAsterisk
          placeholder="What kind of problem?"
          data={CATEGORY_CHOICES}
          allowDeselect={false}
          comboboxProps={{ withinPortal: true }}
          data-autofocus={serialNumber !== null || undefined}
          {...form.getInputProps('category')}
        />
        <Textarea
          label={OPEN_TICKET_LABELS.description}
          withAsterisk
          placeholder="What the customer reported, and what was tried already"
          autosize
          minRows={3}
          maxRows={8}
          description={
            <Text span size="xs" c={descriptionLength > TICKET_DESCRIPTION_MAX ? 'red' : 'dimmed'}>
              {descriptionLength} / {TICKET_DESCRIPTION_MAX}
            </Text>
          }
          inputWrapperOrder={['label', 'input', 'description', 'error']}
          {...form.getInputProps('description')}
        />
        <AssigneeSelect {...form.getInputProps('assigned_to')} />
        {failure ? <ErrorAlert title={OPEN_FAILED} message={failure} /> : null}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel} disabled={opening.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={opening.isPending}>
            Open Ticket
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * New Ticket: a problem reported with a device. `serialNumber` fixes the
 * device (its page); `devices` are the ones to choose from (a customer's);
 * without either the serial number is typed. Full screen on a phone, where
 * field staff take the report. The form mounts afresh at each opening.
 */
export function OpenTicketModal({
  opened,
  onClose,
  serialNumber = null,
  devices = null,
}: {
  opened: boolean;
  onClose: () => void;
  serialNumber?: string | null;
  devices?: readonly TicketDevice[] | null;
}) {
  const phone = useMediaQuery('(max-width: 48em)');
  const opening = useOpenTicket();

  const close = () => {
    if (opening.isPending) return;
    opening.reset();
    onClose();
  };

  return (
    <Modal opened={opened} onClose={close} title="New Ticket" size="lg" fullScreen={phone} closeOnClickOutside={!opening.isPending}>
      <OpenTicketForm
        serialNumber={serialNumber}
        devices={devices}
        opening={opening}
        onOpened={(ticket) => {
          toast.success(`Ticket #${ticket.ticket_id} opened for ${ticket.serial_number}`, { title: 'Ticket opened' });
          opening.reset();
          onClose();
        }}
        onCancel={close}
      />
    </Modal>
  );
}

/** The "New Ticket" button and its modal; `serialNumber` fixes the device, `devices` are the ones to choose from. */
export function NewTicketButton({
  serialNumber = null,
  devices = null,
  ...buttonProps
}: { serialNumber?: string | null; devices?: readonly TicketDevice[] | null } & ButtonProps) {
  const [opened, setOpened] = useState(false);
  return (
    <>
      <Button leftSection={<IconPlus size={16} />} onClick={() => setOpened(true)} {...buttonProps}>
        New Ticket
      </Button>
      <OpenTicketModal opened={opened} onClose={() => setOpened(false)} serialNumber={serialNumber} devices={devices} />
    </>
  );
}
