import '@mantine/dates/styles.css';
import { ActionIcon, Button, Divider, Group, Modal, NumberInput, Paper, Select, SimpleGrid, Stack, Table, Text, Textarea, TextInput, Tooltip } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { DateInput } from '@mantine/dates';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { ErrorAlert } from '@/components/ui/error-alert';
import { errorMessage } from '@/lib/api-client';
import { toast } from '@/lib/notify';
import { useSession } from '@/lib/session';
import { useCreateInvoice } from '../api/create-invoice';
import { useOrganizationOptions } from '../api/get-organization-options';
import { formatAmount } from './format';
import { invoiceAmount, keptRows, lineItemsPayload, lineTotal, newLineItem, removeRow, type LineItemRow } from './line-items';

export const CREATE_TEXTS = {
  organization: 'Organization is required',
  dueDate: 'Due date is required',
  noLines: 'Add at least one line item with a description',
  success: 'Invoice created successfully',
} as const;

/** Create Invoice: organization, due date, description and line items whose totals make the amount. */
export function CreateInvoiceModal({ opened, onClose, admin }: { opened: boolean; onClose: () => void; admin: boolean }) {
  const create = useCreateInvoice();
  const close = () => {
    if (create.isPending) return;
    create.reset();
    onClose();
  };
  return (
    <Modal opened={opened} onClose={close} title="Create Invoice" size="xl" centered>
      {opened ? <CreateInvoiceForm admin={admin} create={create} onCancel={close} onDone={onClose} /> : null}
    </Modal>
  );
}

function CreateInvoiceForm({
  admin,
  create,
  onCancel,
  onDone,
}: {
  admin: boolean;
  create: ReturnType<typeof useCreateInvoice>;
  onCancel: () => void;
  onDone: () => void;
}) {
  const { user } = useSession();
  const organizations = useOrganizationOptions(user, true);
  const ownOrganization = !admin && user ? user.organization_id : null;
  const [organizationId, setOrganizationId] = useState<string | null>(ownOrganization);
  const [dueDate, setDueDate] = useState<string | null>(null);
  const [description, setDescription] = useState('');
  const [rows, setRows] = useState<LineItemRow[]>(() => [newLineItem()]);
  const [errors, setErrors] = useState<{ organization?: string; dueDate?: string; lines?: string }>({});

  const update = (key: number, patch: Partial<LineItemRow>) => setRows((rs) => rs.map((r) => (r.key === key ? { ...r, ...patch } : r)));
  const amount = invoiceAmount(rows);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const next = {
      organization: organizationId ? undefined : CREATE_TEXTS.organization,
      dueDate: dueDate ? undefined : CREATE_TEXTS.dueDate,
      lines: keptRows(rows).length > 0 ? undefined : CREATE_TEXTS.noLines,
    };
    setErrors(next);
    if (next.organization || next.dueDate || next.lines || !organizationId || !dueDate) return;
    create.mutate(
      {
        admin,
        input: {
          organization_id: organizationId,
          due_date: dueDate,
          description: description.trim() || null,
          amount,
          line_items: lineItemsPayload(rows),
        },
      },
      {
        onSuccess: () => {
          toast.success(CREATE_TEXTS.success);
          create.reset();
          onDone();
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <Group grow align="flex-start" gap="sm" wrap="wrap">
          <Select
            label="Organization"
            withAsterisk
            searchable
            placeholder={organizations.isPending ? 'Loading organizations...' : 'Choose an organization'}
            data={(organizations.data ?? []).map((o) => ({
              value: o.organization_id,
              label: o.name ? `${o.name} (${o.organization_id})` : o.organization_id,
            }))}
            value={organizationId}
            onChange={setOrganizationId}
            disabled={!admin}
            error={errors.organization ?? (organizations.isError ? errorMessage(organizations.error, 'Failed to load organizations') : undefined)}
            nothingFoundMessage="No organizations found"
            miw={220}
          />
          <DateInput
            label="Due Date"
            withAsterisk
            placeholder="Pick a date"
            valueFormat="YYYY-MM-DD"
            value={dueDate}
            onChange={setDueDate}
            clearable
            error={errors.dueDate}
            miw={180}
          />
        </Group>
        <Textarea label="Description" rows={2} value={description} onChange={(e) => setDescription(e.currentTarget.value)} />

        <Divider label="Line items" labelPosition="left" />
        <LineItemsEditor rows={rows} onChange={update} onRemove={(key) => setRows((rs) => removeRow(rs, key))} />
        <Group justify="space-between">
          <Button variant="light" size="xs" leftSection={<IconPlus size={14} />} onClick={() => setRows((rs) => [...rs, newLineItem()])}>
            Add Line Item
          </Button>
          <Text fw={700} aria-label="Invoice amount">
            Amount: {formatAmount(amount)}
          </Text>
        </Group>
        {errors.lines ? (
          <Text size="sm" c="red" role="alert">
            {errors.lines}
          </Text>
        ) : (
          <Text size="xs" c="dimmed">
            Lines without a description are left out. Tax from the invoice settings is added by the server.
          </Text>
        )}
        {create.isError ? <ErrorAlert title="Failed to create invoice" message={errorMessage(create.error, 'Failed to create invoice')} /> : null}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel} disabled={create.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={create.isPending}>
            Create Invoice
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * The line item rows: a table on wider screens; on a phone (where four inputs
 * and a button in a row leave the unit price no width and push the remove
 * button past the dialog's edge) one labelled block per line.
 */
function LineItemsEditor({
  rows,
  onChange,
  onRemove,
}: {
  rows: LineItemRow[];
  onChange: (key: number, patch: Partial<LineItemRow>) => void;
  onRemove: (key: number) => void;
}) {
  const phone = useMediaQuery('(max-width: 48em)');
  const canRemove = rows.length > 1;
  const fields = (row: LineItemRow, i: number, labelled: boolean) => ({
    description: (
      <TextInput
        label={labelled ? 'Description' : undefined}
        aria-label={`Description of line ${i + 1}`}
        placeholder="e.g. Platform subscription, November"
        value={row.description}
        onChange={(e) => onChange(row.key, { description: e.currentTarget.value })}
      />
    ),
    quantity: (
      <NumberInput
        label={labelled ? 'Quantity' : undefined}
        aria-label={`Quantity of line ${i + 1}`}
        min={0}
        step={0.01}
        decimalScale={2}
        allowNegative={false}
        value={row.quantity}
        onChange={(v) => onChange(row.key, { quantity: v })}
      />
    ),
    unitPrice: (
      <NumberInput
        label={labelled ? 'Unit Price' : undefined}
        aria-label={`Unit price of line ${i + 1}`}
        min={0}
        step={0.01}
        decimalScale={2}
        allowNegative={false}
        value={row.unit_price}
        onChange={(v) => onChange(row.key, { unit_price: v })}
      />
    ),
    total: (
      <Text size="sm" fw={500} aria-label={`Total of line ${i + 1}`} style={{ fontVariantNumeric: 'tabular-nums' }}>
        {formatAmount(lineTotal(row))}
      </Text>
    ),
  });

  if (phone) {
    return (
      <Stack gap="sm">
        {rows.map((row, i) => {
          const f = fields(row, i, true);
          return (
            <Paper key={row.key} withBorder radius="md" p="sm" role="group" aria-label={`Line ${i + 1}`}>
              <Stack gap="xs">
                {f.description}
                <SimpleGrid cols={2} spacing="xs">
                  {f.quantity}
                  {f.unitPrice}
                </SimpleGrid>
                <Group justify="space-between" wrap="nowrap">
                  <Group gap={6} wrap="nowrap">
                    <Text size="sm" c="dimmed">
                      Line total
                    </Text>
                    {f.total}
                  </Group>
                  {canRemove ? (
                    <Button
                      variant="subtle"
                      color="red"
                      size="compact-sm"
                      leftSection={<IconTrash size={14} />}
                      aria-label={`Remove line ${i + 1}`}
                      onClick={() => onRemove(row.key)}
                    >
                      Remove
                    </Button>
                  ) : null}
                </Group>
              </Stack>
            </Paper>
          );
        })}
      </Stack>
    );
  }

  return (
    <Table verticalSpacing={6} withRowBorders={false} aria-label="Line items">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Description</Table.Th>
          <Table.Th w={110}>Quantity</Table.Th>
          <Table.Th w={140}>Unit Price</Table.Th>
          <Table.Th w={120} ta="right">
            Line Total
          </Table.Th>
          <Table.Th w={44} />
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((row, i) => {
          const f = fields(row, i, false);
          return (
            <Table.Tr key={row.key}>
              <Table.Td>{f.description}</Table.Td>
              <Table.Td>{f.quantity}</Table.Td>
              <Table.Td>{f.unitPrice}</Table.Td>
              <Table.Td ta="right">{f.total}</Table.Td>
              <Table.Td>
                {canRemove ? (
                  <Tooltip label="Remove line">
                    <ActionIcon variant="subtle" color="red" aria-label={`Remove line ${i + 1}`} onClick={() => onRemove(row.key)}>
                      <IconTrash size={16} />
                    </ActionIcon>
                  </Tooltip>
                ) : null}
              </Table.Td>
            </Table.Tr>
          );
        })}
      </Table.Tbody>
    </Table>
  );
}
