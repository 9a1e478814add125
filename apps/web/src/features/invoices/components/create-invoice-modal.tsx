import '@mantine/dates/styles.css';
import { ActionIcon, Button, Divider, Group, Modal, NumberInput, Select, Stack, Table, Text, Textarea, TextInput, Tooltip } from '@mantine/core';
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
            {rows.map((row, i) => (
              <Table.Tr key={row.key}>
                <Table.Td>
                  <TextInput
                    aria-label={`Description of line ${i + 1}`}
                    placeholder="e.g. Platform subscription, November"
                    value={row.description}
                    onChange={(e) => update(row.key, { description: e.currentTarget.value })}
                  />
                </Table.Td>
                <Table.Td>
                  <NumberInput
                    aria-label={`Quantity of line ${i + 1}`}
                    min={0}
                    step={0.01}
                    decimalScale={2}
                    allowNegative={false}
                    value={row.quantity}
                    onChange={(v) => update(row.key, { quantity: v })}
                  />
                </Table.Td>
                <Table.Td>
                  <NumberInput
                    aria-label={`Unit price of line ${i + 1}`}
                    min={0}
                    step={0.01}
                    decimalScale={2}
                    allowNegative={false}
                    value={row.unit_price}
                    onChange={(v) => update(row.key, { unit_price: v })}
                  />
                </Table.Td>
                <Table.Td ta="right">
                  <Text size="sm" fw={500} aria-label={`Total of line ${i + 1}`} style={{ fontVariantNumeric: 'tabular-nums' }}>
                    {formatAmount(lineTotal(row))}
                  </Text>
                </Table.Td>
                <Table.Td>
                  {rows.length > 1 ? (
                    <Tooltip label="Remove line">
                      <ActionIcon variant="subtle" color="red" aria-label={`Remove line ${i + 1}`} onClick={() => setRows((rs) => removeRow(rs, row.key))}>
                        <IconTrash size={16} />
                      </ActionIcon>
                    </Tooltip>
                  ) : null}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
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
