import { ActionIcon, Button, Card, Group, Select, Stack, Text, Tooltip } from '@mantine/core';
import { IconDownload, IconEye, IconPencil, IconPlus, IconReceipt, IconRefresh, IconTrash, IconUpload } from '@tabler/icons-react';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { PageHeader } from '@/components/layout/page-header';
import { DataTable, type Column } from '@/components/ui/data-table';
import { DateText } from '@/components/ui/date-text';
import { PaginationControl } from '@/components/ui/pagination-control';
import { SearchBar, useSearchTerm } from '@/components/ui/search-bar';
import { StatusBadge } from '@/components/ui/status-badge';
import { paths } from '@/config/paths';
import { useExportCustomers } from '../api/export-customers';
import { CUSTOMERS_PAGE_SIZE, useCustomers } from '../api/get-customers';
import { CUSTOMER_SEARCH_FIELDS, type Customer, type CustomerSearchField } from '../api/types';
import { AddCustomerModal } from '../components/add-customer-modal';
import { CustomerDetailsModal } from '../components/customer-details-modal';
import { DeleteCustomerModal } from '../components/delete-customer-modal';
import { EditCustomerModal } from '../components/edit-customer-modal';
import { ImportCustomersModal } from '../components/import-customers-modal';

export const LOAD_FAILED = 'Failed to load customers';

const FIELD_LABELS: Record<CustomerSearchField, string> = {
  customer_name: 'Customer Name',
  phone_contact: 'Phone Contact',
  id_number: 'ID Number',
  email: 'Email',
  county: 'County',
  constituency: 'Constituency',
  occupation: 'Occupation',
};

export default function CustomersRoute() {
  const navigate = useNavigate();
  const [page, setPage] = useState(1);
  const [field, setField] = useState<CustomerSearchField>('customer_name');
  const search = useSearchTerm({ onApply: () => setPage(1) });
  const [adding, setAdding] = useState(false);
  const [importing, setImporting] = useState(false);
  const [editing, setEditing] = useState<Customer | null>(null);
  const [deleting, setDeleting] = useState<Customer | null>(null);
  const [viewing, setViewing] = useState<Customer | null>(null);

  const query = {
    limit: CUSTOMERS_PAGE_SIZE,
    offset: (page - 1) * CUSTOMERS_PAGE_SIZE,
    ...(search.term ? { search_term: search.term, search_field: field } : {}),
  };
  const customers = useCustomers(query);
  const exporter = useExportCustomers();
  const total = customers.data?.pagination?.total ?? customers.data?.data.length ?? 0;

  const columns: Column<Customer>[] = [
    {
      key: 'name',
      header: 'Customer Name',
      render: (c) => (
        <Text size="sm" fw={500}>
          {c.customer_name}
        </Text>
      ),
    },
    { key: 'phone', header: 'Phone Contact', render: (c) => c.phone_contact },
    { key: 'id', header: 'ID Number', render: (c) => c.id_number },
    { key: 'county', header: 'County', render: (c) => c.county || '—' },
    { key: 'status', header: 'Status', render: (c) => <StatusBadge kind="customer" status={c.status} /> },
    { key: 'created', header: 'Created', render: (c) => <DateText value={c.created_at} /> },
    {
      key: 'actions',
      header: 'Actions',
      align: 'right',
      render: (c) => (
        <Group gap={4} justify="flex-end" wrap="nowrap">
          {/* An erased customer's profile is empty for good: nothing to edit. */}
          {c.status === 'erased' ? null : (
            <Tooltip label="Edit" withArrow>
              <ActionIcon variant="subtle" aria-label={`Edit ${c.customer_name}`} onClick={() => setEditing(c)}>
                <IconPencil size={18} />
              </ActionIcon>
            </Tooltip>
          )}
          <Tooltip label="View Details" withArrow>
            <ActionIcon variant="subtle" aria-label={`View details of ${c.customer_name}`} onClick={() => setViewing(c)}>
              <IconEye size={18} />
            </ActionIcon>
          </Tooltip>
          <Tooltip label="View Payment Details" withArrow>
            <ActionIcon
              variant="subtle"
              aria-label={`View payment details of ${c.customer_name}`}
              onClick={() => navigate(paths.app.customerPaymentDetails.getHref(c.customer_id))}
            >
              <IconReceipt size={18} />
            </ActionIcon>
          </Tooltip>
          <Tooltip label="Delete" withArrow>
            <ActionIcon variant="subtle" color="red" aria-label={`Delete ${c.customer_name}`} onClick={() => setDeleting(c)}>
              <IconTrash size={18} />
            </ActionIcon>
          </Tooltip>
        </Group>
      ),
    },
  ];

  return (
    <>
      <PageHeader
        title="Customers"
        subtitle="Everyone who buys on credit: register, search, import and export."
        actions={
          <>
            <Button
              variant="default"
              leftSection={<IconDownload size={16} />}
              onClick={() => exporter.mutate()}
              loading={exporter.isPending}
            >
              Export
            </Button>
            <Button variant="default" leftSection={<IconUpload size={16} />} onClick={() => setImporting(true)}>
              Import CSV
            </Button>
            <Button leftSection={<IconPlus size={16} />} onClick={() => setAdding(true)}>
              Add Customer
            </Button>
            <Button
              variant="default"
              leftSection={<IconRefresh size={16} />}
              onClick={() => void customers.refetch()}
              loading={customers.isFetching && !customers.isPending}
            >
              Refresh
            </Button>
          </>
        }
      />

      <Card padding="lg">
        <Stack gap="md">
          <SearchBar
            label="Search customers"
            placeholder={`Search by ${FIELD_LABELS[field].toLowerCase()}...`}
            value={search.input}
            onChange={search.setInput}
            onSubmit={search.submit}
            onClear={search.clear}
            withButtons
            leftSection={
              <Select
                aria-label="Search field"
                w={180}
                data={CUSTOMER_SEARCH_FIELDS.map((f) => ({ value: f, label: FIELD_LABELS[f] }))}
                value={field}
                allowDeselect={false}
                onChange={(v) => {
                  if (!v) return;
                  setField(v as CustomerSearchField);
                  setPage(1);
                }}
              />
            }
          />
          <DataTable
            caption="Customers"
            columns={columns}
            rows={customers.data?.data}
            rowKey={(c) => c.customer_id}
            loading={customers.isPending}
            error={customers.isError ? LOAD_FAILED : null}
            onRetry={() => void customers.refetch()}
            emptyText={search.term ? 'No customers found matching your search' : 'No customers found'}
            minWidth={860}
          />
          <PaginationControl
            page={page}
            total={total}
            pageSize={CUSTOMERS_PAGE_SIZE}
            onPageChange={setPage}
          />
        </Stack>
      </Card>

      <AddCustomerModal opened={adding} onClose={() => setAdding(false)} />
      <ImportCustomersModal opened={importing} onClose={() => setImporting(false)} />
      <EditCustomerModal customer={editing} onClose={() => setEditing(null)} />
      <DeleteCustomerModal customer={deleting} onClose={() => setDeleting(null)} />
      <CustomerDetailsModal
        customer={viewing}
        onClose={() => setViewing(null)}
        onEdit={(c) => {
          setViewing(null);
          setEditing(c);
        }}
      />
    </>
  );
}
