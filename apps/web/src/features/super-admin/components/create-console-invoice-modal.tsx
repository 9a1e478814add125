import '@mantine/dates/styles.css';
import { Button, Group, Modal, NumberInput, Select, SimpleGrid, Stack, Textarea, TextInput } from '@mantine/core';
import { DateInput } from '@mantine/dates';
import { useForm } from '@mantine/form';
import { ErrorAlert } from '@/components/ui/error-alert';
import { errorMessage } from '@/lib/api-client';
import { useCreateConsoleInvoice } from '../api/console-invoices';
import { organizationLabel, useOrganizationOptions } from '../api/get-organizations';
import type { ConsoleCreateInvoiceInput } from '../api/types';
import { useConsoleFeedback } from './console-feedback';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;

interface Values {
  organization_id: string | null;
  customer_name: string;
  customer_email: string;
  customer_phone: string;
  amount: number | string;
  description: string;
  due_date: string | null;
  status: ConsoleCreateInvoiceInput['status'];
}

/** The console's Create Invoice: billed organization and contact, amount, optional due date; pending by default. */
export function CreateConsoleInvoiceModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const feedback = useConsoleFeedback();
  const create = useCreateConsoleInvoice();
  const orgs = useOrganizationOptions();
  const form = useForm<Values>({
    initialValues: {
      organization_id: null,
      customer_name: '',
      customer_email: '',
      customer_phone: '',
      amount: '',
      description: '',
      due_date: null,
      status: 'pending',
    },
    validate: {
      organization_id: (v) => (v ? null : 'Organization is required'),
      customer_name: (v) => (v.trim() ? null : 'Customer name is required'),
      customer_email: (v) => (!v.trim() ? 'Customer email is required' : EMAIL.test(v.trim()) ? null : 'Enter a valid email address'),
      amount: (v) => {
        if (v === '' || v === null) return 'Amount is required';
        return Number(v) > 0 ? null : 'Amount must be more than 0';
      },
    },
  });
  const close = () => {
    if (create.isPending) return;
    form.reset();
    create.reset();
    onClose();
  };
  const submit = form.onSubmit((v) =>
    create.mutate(
      {
        organization_id: v.organization_id ?? '',
        customer_name: v.customer_name.trim(),
        customer_email: v.customer_email.trim(),
        ...(v.customer_phone.trim() ? { customer_phone: v.customer_phone.trim() } : {}),
        amount: Math.round(Number(v.amount) * 100) / 100,
        description: v.description.trim() || null,
        due_date: v.due_date || null,
        status: v.status,
      },
      {
        onSuccess: () => {
          feedback.success('Invoice created successfully');
          form.reset();
          create.reset();
          onClose();
        },
        onError: (e) => feedback.error(errorMessage(e, 'Failed to create invoice')),
      },
    ),
  );
  return (
    <Modal opened={opened} onClose={close} title="Create Invoice" size="lg" centered>
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <Select
            label="Organization"
            withAsterisk
            searchable
            placeholder={orgs.isPending ? 'Loading organizations...' : 'Choose an organization'}
            data={(orgs.data ?? []).map((o) => ({ value: o.organization_id, label: organizationLabel(o) }))}
            nothingFoundMessage="No organizations found"
            {...form.getInputProps('organization_id')}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <TextInput label="Customer Name" withAsterisk {...form.getInputProps('customer_name')} />
            <TextInput label="Customer Email" type="email" withAsterisk {...form.getInputProps('customer_email')} />
            <TextInput label="Customer Phone" {...form.getInputProps('customer_phone')} />
            <NumberInput
              label="Amount ($)"
              // Without line items the server takes the amount as the total; the global tax rate is not added.
              description="The total billed: no tax is added. The Default Tax Rate applies only to invoices with line items."
              // Under the input, so the input lines up with Customer Phone beside it.
              inputWrapperOrder={['label', 'input', 'description', 'error']}
              withAsterisk
              min={0}
              step={0.01}
              decimalScale={2}
              allowNegative={false}
              {...form.getInputProps('amount')}
            />
            <DateInput label="Due Date" valueFormat="YYYY-MM-DD" clearable placeholder="Pick a date" {...form.getInputProps('due_date')} />
            <Select
              label="Status"
              allowDeselect={false}
              data={[
                { value: 'pending', label: 'Pending' },
                { value: 'paid', label: 'Paid' },
                { value: 'overdue', label: 'Overdue' },
                { value: 'cancelled', label: 'Cancelled' },
              ]}
              {...form.getInputProps('status')}
            />
          </SimpleGrid>
          <Textarea label="Description" rows={3} {...form.getInputProps('description')} />
          {create.isError ? <ErrorAlert message={errorMessage(create.error, 'Failed to create invoice')} /> : null}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close} disabled={create.isPending}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending}>
              Create Invoice
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
