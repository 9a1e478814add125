import '@mantine/dates/styles.css';
import { Button, Group, Modal, Paper, Select, SimpleGrid, Skeleton, Stack, Text, Textarea, TextInput, UnstyledButton } from '@mantine/core';
import { DateInput } from '@mantine/dates';
import { useDebouncedValue, useMediaQuery } from '@mantine/hooks';
import { IconCheck, IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { ErrorAlert } from '@/components/ui/error-alert';
import { PaginationControl } from '@/components/ui/pagination-control';
import { errorMessage } from '@/lib/api-client';
import { toast } from '@/lib/notify';
import { useAssignTemplate } from '../api/assign-template';
import { useCustomerDevices } from '../api/get-customer-devices';
import { CUSTOMER_CHOICES_PAGE_SIZE, useCustomerChoices } from '../api/search-customers';
import type { CustomerChoice, PaymentTemplate } from '../api/types';

export const ASSIGN_FAILED = 'Failed to assign template';

export interface AssignTemplateModalProps {
  opened: boolean;
  onClose: () => void;
  templates: PaymentTemplate[];
  /** Preselected when opened from a template's row (the parent remounts the modal per opening). */
  templateId?: number | null;
}

/** The device choice that means the customer's plan, for all their devices without one of their own. */
const ALL_DEVICES = '';

/**
 * Pick a customer (searched by name, 5 at a time) and a template; dates and
 * notes are optional. The plan is the customer's, for all their devices, or,
 * when one device is chosen, that device's own.
 */
export function AssignTemplateModal({ opened, onClose, templates, templateId = null }: AssignTemplateModalProps) {
  const phone = useMediaQuery('(max-width: 48em)');
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const [page, setPage] = useState(1);
  const [customer, setCustomer] = useState<CustomerChoice | null>(null);
  const [template, setTemplate] = useState<string | null>(templateId ? String(templateId) : null);
  const [device, setDevice] = useState<string>(ALL_DEVICES);
  const [startDate, setStartDate] = useState<string | null>(null);
  const [endDate, setEndDate] = useState<string | null>(null);
  const [notes, setNotes] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const assign = useAssignTemplate();
  const choices = useCustomerChoices(debounced, page, opened);
  const devices = useCustomerDevices(customer?.customer_id ?? null);


  const reset = () => {
    setSearch('');
    setPage(1);
    setCustomer(null);
    setDevice(ALL_DEVICES);
    setTemplate(null);
    setStartDate(null);
    setEndDate(null);
    setNotes('');
    setFailure(null);
    assign.reset();
  };
  const close = () => {
    if (assign.isPending) return;
    reset();
    onClose();
  };

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    // Spec §5: without a customer and a template, submitting silently does nothing.
    if (!customer || !template || assign.isPending) return;
    setFailure(null);
    try {
      const reply = await assign.mutateAsync({
        customer_id: customer.customer_id,
        template_id: Number(template),
        ...(device ? { serial_number: device } : {}),
        start_date: startDate || null,
        end_date: endDate || null,
        notes: notes.trim() || null,
      });
      const whose = device ? `${customer.customer_name}'s device ${device}` : customer.customer_name;
      if (reply && reply.changed === false) toast.info(`${whose} is already on this template`);
      else toast.success(`Template assigned to ${whose}`);
      reset();
      onClose();
    } catch (error) {
      setFailure(errorMessage(error, ASSIGN_FAILED));
    }
  };

  const list = choices.data?.data ?? [];
  const total = choices.data?.pagination?.total ?? list.length;

  return (
    <Modal opened={opened} onClose={close} title="Assign Template" size="lg" fullScreen={phone} closeOnClickOutside={false}>
      <form onSubmit={submit} noValidate aria-label="Assign Template">
        <Stack gap="md">
          {failure ? <ErrorAlert title={ASSIGN_FAILED} message={failure} /> : null}
          <Stack gap={6}>
            <TextInput
              label="Customer"
              placeholder="Search customers by name"
              leftSection={<IconSearch size={16} />}
              value={search}
              onChange={(e) => {
                setSearch(e.currentTarget.value);
                setPage(1);
              }}
              data-autofocus
            />
            {customer ? (
              <Text size="sm">
                Selected: <b>{customer.customer_name}</b> · {customer.phone_contact}
              </Text>
            ) : (
              <Text size="xs" c="dimmed">
                Choose a customer from the list.
              </Text>
            )}
            <Stack gap={4} role="listbox" aria-label="Customers">
              {choices.isPending ? (
                [0, 1, 2].map((i) => <Skeleton key={i} h={44} />)
              ) : choices.isError ? (
                <Text size="sm" c="red">
                  {errorMessage(choices.error, 'Failed to load customers')}
                </Text>
              ) : list.length === 0 ? (
                <Text size="sm" c="dimmed" py="xs">
                  {debounced ? 'No customers found matching your search' : 'No customers found'}
                </Text>
              ) : (
                list.map((c) => {
                  const selected = customer?.customer_id === c.customer_id;
                  return (
                    <UnstyledButton
                      key={c.customer_id}
                      type="button"
                      role="option"
                      aria-selected={selected}
                      onClick={() => {
                        setCustomer(selected ? null : c);
                        setDevice(ALL_DEVICES);
                      }}
                    >
                      <Paper
                        withBorder
                        px="sm"
                        py={6}
                        radius="sm"
                        style={{
                          borderColor: selected ? 'var(--mantine-primary-color-filled)' : undefined,
                          background: selected ? 'var(--mantine-primary-color-light)' : undefined,
                        }}
                      >
                        <Group justify="space-between" wrap="nowrap">
                          <Stack gap={0}>
                            <Text size="sm" fw={500}>
                              {c.customer_name}
                            </Text>
                            <Text size="xs" c="dimmed">
                              {c.phone_contact} · ID {c.id_number}
                              {c.county ? ` · ${c.county}` : ''}
                            </Text>
                          </Stack>
                          {selected ? <IconCheck size={18} color="var(--mantine-primary-color-filled)" /> : null}
                        </Group>
                      </Paper>
                    </UnstyledButton>
                  );
                })
              )}
            </Stack>
            <PaginationControl page={page} total={total} pageSize={CUSTOMER_CHOICES_PAGE_SIZE} onPageChange={setPage} />
          </Stack>
          <Select
            label="Template"
            placeholder="Choose a template"
            searchable
            data={templates.map((t) => ({ value: String(t.template_id), label: `${t.template_name} (${t.currency} ${t.daily_price}/day)` }))}
            value={template}
            onChange={setTemplate}
            comboboxProps={{ withinPortal: true }}
            nothingFoundMessage="No templates"
          />
          {customer ? (
            <Select
              label="Devices"
              description="One device alone gets a plan of its own, which wins over the customer's plan for that device; the customer's other devices keep theirs."
              data={[
                { value: ALL_DEVICES, label: "All of the customer's devices (the customer's plan)" },
                ...(devices.data ?? []).map((d) => ({ value: d.serial_number, label: `${d.serial_number} · ${d.product_name}` })),
              ]}
              value={device}
              onChange={(v) => setDevice(v ?? ALL_DEVICES)}
              allowDeselect={false}
              disabled={devices.isPending}
              error={devices.isError ? errorMessage(devices.error, "Failed to load the customer's devices") : undefined}
              comboboxProps={{ withinPortal: true }}
            />
          ) : null}
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <DateInput
              label="Start Date"
              placeholder="Optional"
              valueFormat="YYYY-MM-DD"
              clearable
              value={startDate}
              onChange={(v) => setStartDate(typeof v === 'string' ? v : null)}
              popoverProps={{ withinPortal: true }}
            />
            <DateInput
              label="End Date"
              placeholder="Optional"
              valueFormat="YYYY-MM-DD"
              clearable
              minDate={startDate ?? undefined}
              value={endDate}
              onChange={(v) => setEndDate(typeof v === 'string' ? v : null)}
              popoverProps={{ withinPortal: true }}
            />
          </SimpleGrid>
          <Textarea label="Notes" placeholder="Optional" autosize minRows={2} maxRows={4} value={notes} onChange={(e) => setNotes(e.currentTarget.value)} />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close} disabled={assign.isPending}>
              Cancel
            </Button>
            <Button type="submit" loading={assign.isPending}>
              Assign Template
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
