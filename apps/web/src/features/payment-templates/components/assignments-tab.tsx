import { Badge, Button, Group, SegmentedControl, Select, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { ConfirmModal } from '@/components/ui/confirm-modal';
import { DataTable, type Column } from '@/components/ui/data-table';
import { DateText } from '@/components/ui/date-text';
import { PaginationControl } from '@/components/ui/pagination-control';
import { errorMessage } from '@/lib/api-client';
import { toast } from '@/lib/notify';
import { useEndAssignment } from '../api/end-assignment';
import { ASSIGNMENTS_PAGE_SIZE, useAssignments } from '../api/get-assignments';
import type { PaymentTemplate, TemplateAssignment } from '../api/types';
import { LOAD_FAILED } from './templates-tab';

const columns: Column<TemplateAssignment>[] = [
  {
    key: 'customer',
    header: 'Customer',
    render: (a) => (
      <Text size="sm" fw={500}>
        {a.customer_name}
      </Text>
    ),
  },
  { key: 'template', header: 'Template', render: (a) => a.template_name },
  {
    key: 'devices',
    header: 'Devices',
    render: (a) =>
      a.serial_number ? (
        <Text size="sm" ff="monospace">
          {a.serial_number}
        </Text>
      ) : (
        <Text size="sm" c="dimmed">
          All without their own
        </Text>
      ),
  },
  { key: 'start', header: 'Start Date', render: (a) => <DateText value={a.start_date} /> },
  { key: 'end', header: 'End Date', render: (a) => <DateText value={a.end_date} /> },
  {
    key: 'assigned',
    header: 'Assigned',
    render: (a) => (
      <Stack gap={0}>
        <DateText value={a.assigned_at} withTime />
        {a.assigned_by ? (
          <Text size="xs" c="dimmed">
            by {a.assigned_by}
          </Text>
        ) : null}
      </Stack>
    ),
  },
  {
    key: 'status',
    header: 'Status',
    render: (a) => (
      <Badge variant="light" color={a.is_active ? 'green' : 'gray'} radius="sm">
        {a.is_active ? 'Active' : 'Ended'}
      </Badge>
    ),
  },
  {
    key: 'notes',
    header: 'Notes',
    render: (a) => (
      <Text size="sm" c={a.notes ? undefined : 'dimmed'} lineClamp={2} maw={240}>
        {a.notes ?? '—'}
      </Text>
    ),
  },
];

/** An active plan of a device's own can be ended; the customer's plan then covers the device again. */
const actionsColumn = (onEnd: (a: TemplateAssignment) => void): Column<TemplateAssignment> => ({
  key: 'actions',
  header: 'Actions',
  render: (a) =>
    a.is_active && a.serial_number ? (
      <Button size="compact-sm" variant="default" onClick={() => onEnd(a)} aria-label={`End the plan of ${a.serial_number}`}>
        End
      </Button>
    ) : null,
});

type Filter = 'all' | 'active' | 'ended';

/** Who is on which template, now and before, filterable by template and state. */
export function AssignmentsTab({ templates }: { templates: PaymentTemplate[] }) {
  const [page, setPage] = useState(1);
  const [templateId, setTemplateId] = useState<string | null>(null);
  const [filter, setFilter] = useState<Filter>('all');
  const [ending, setEnding] = useState<TemplateAssignment | null>(null);
  const end = useEndAssignment();
  const closeEnd = () => {
    setEnding(null);
    end.reset();
  };
  const confirmEnd = async () => {
    if (!ending) return;
    try {
      const reply = await end.mutateAsync(ending.assignment_id);
      toast.success(reply.message);
      closeEnd();
    } catch {
      // Shown in the dialog.
    }
  };
  const assignments = useAssignments({
    limit: ASSIGNMENTS_PAGE_SIZE,
    offset: (page - 1) * ASSIGNMENTS_PAGE_SIZE,
    ...(templateId ? { template_id: Number(templateId) } : {}),
    ...(filter === 'all' ? {} : { active: filter === 'active' }),
  });

  return (
    <Stack gap="md">
      <Group gap="sm" wrap="wrap">
        <Select
          aria-label="Filter by template"
          placeholder="All templates"
          clearable
          searchable
          w={260}
          data={templates.map((t) => ({ value: String(t.template_id), label: t.template_name }))}
          value={templateId}
          onChange={(v) => {
            setTemplateId(v);
            setPage(1);
          }}
        />
        <SegmentedControl
          aria-label="Filter by state"
          value={filter}
          onChange={(v) => {
            setFilter(v as Filter);
            setPage(1);
          }}
          data={[
            { value: 'all', label: 'All' },
            { value: 'active', label: 'Active' },
            { value: 'ended', label: 'Ended' },
          ]}
        />
      </Group>
      <DataTable
        caption="Template assignments"
        columns={[...columns, actionsColumn(setEnding)]}
        rows={assignments.data?.data}
        rowKey={(a) => a.assignment_id}
        loading={assignments.isPending}
        error={assignments.isError ? LOAD_FAILED : null}
        onRetry={() => void assignments.refetch()}
        emptyText="No assignments found"
        emptyHint="Assign a template to a customer and it will show here."
        minWidth={900}
      />
      <PaginationControl
        page={page}
        total={assignments.data?.pagination?.total ?? 0}
        pageSize={ASSIGNMENTS_PAGE_SIZE}
        onPageChange={setPage}
      />
      <ConfirmModal
        opened={ending !== null}
        onClose={closeEnd}
        onConfirm={() => void confirmEnd()}
        title="End Device Plan"
        message={
          ending
            ? `End ${ending.template_name} for device ${ending.serial_number}? The device is then paid on ${ending.customer_name}'s plan; this assignment stays in the history.`
            : ''
        }
        confirmLabel="End Plan"
        color="orange"
        loading={end.isPending}
        error={end.isError ? errorMessage(end.error, 'Failed to end the plan') : null}
        errorTitle="Failed to end the plan"
      />
    </Stack>
  );
}
