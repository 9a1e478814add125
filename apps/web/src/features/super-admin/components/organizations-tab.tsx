import { ActionIcon, Button, Card, Group, Select, SimpleGrid, Stack, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { useDebouncedValue, useDisclosure } from '@mantine/hooks';
import { IconBuilding, IconBuildingCommunity, IconEye, IconPlayerPause, IconPlus, IconSearch, IconToggleRight, IconTrash, IconUsers } from '@tabler/icons-react';
import type { OrgStatus } from '@kidogo/contracts';
import { useState } from 'react';
import { DataTable, type Column } from '@/components/ui/data-table';
import { formatDate } from '@/components/ui/date-text';
import { PaginationControl } from '@/components/ui/pagination-control';
import { StatCard } from '@/components/ui/stat-card';
import { errorMessage } from '@/lib/api-client';
import { ORGANIZATION_PAGE_SIZE, useOrganizations } from '../api/get-organizations';
import { useOrganizationStats } from '../api/get-organization-stats';
import type { AdminOrganization } from '../api/types';
import { AddOrganizationModal } from './add-organization-modal';
import { ChangeStatusModal, type ChangeStatusTarget } from './change-status-modal';
import { DeleteOrganizationModal } from './delete-organization-modal';
import { OrganizationDetailsModal } from './organization-details-modal';
import { OrgStatusBadge } from './org-status-badge';

const STATUS_FILTERS = [
  { value: '', label: 'All statuses' },
  { value: 'active', label: 'Active' },
  { value: 'suspended', label: 'Suspended' },
  { value: 'disabled', label: 'Disabled' },
];

export function OrganizationsTab() {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 500);
  const [status, setStatus] = useState('');
  const [page, setPage] = useState(1);
  const [addOpened, addModal] = useDisclosure(false);
  const [detailsId, setDetailsId] = useState<string | null>(null);
  const [statusTarget, setStatusTarget] = useState<ChangeStatusTarget | null>(null);
  const [deleteId, setDeleteId] = useState<string | null>(null);

  const [lastKey, setLastKey] = useState(`${debounced}|${status}`);
  if (`${debounced}|${status}` !== lastKey) {
    setLastKey(`${debounced}|${status}`);
    setPage(1);
  }

  const stats = useOrganizationStats();
  const orgs = useOrganizations({
    limit: ORGANIZATION_PAGE_SIZE,
    offset: (page - 1) * ORGANIZATION_PAGE_SIZE,
    search: debounced || undefined,
    status: (status || undefined) as OrgStatus | undefined,
  });

  const columns: Column<AdminOrganization>[] = [
    {
      key: 'org',
      header: 'Organization',
      render: (o) => (
        <Stack gap={0}>
          <Text size="sm" fw={600}>
            {o.organization_id}
            {o.name ? (
              <Text span size="sm" c="dimmed" fw={400}>
                {' '}
                · {o.name}
              </Text>
            ) : null}
          </Text>
          <Text size="xs" c="dimmed">
            {o.external_key || 'No external key'}
          </Text>
        </Stack>
      ),
    },
    { key: 'app', header: 'App Type', render: (o) => o.app },
    { key: 'status', header: 'Status', render: (o) => <OrgStatusBadge status={o.status} /> },
    { key: 'users', header: 'Users', align: 'right', render: (o) => o.user_count ?? 0 },
    { key: 'activity', header: 'Last Activity', render: (o) => (o.last_activity ? formatDate(o.last_activity, true) : 'Never') },
    {
      key: 'actions',
      header: 'Actions',
      align: 'right',
      render: (o) => (
        <Group gap={4} justify="flex-end" wrap="nowrap">
          <Tooltip label="View details">
            <ActionIcon variant="subtle" aria-label={`View details of ${o.organization_id}`} onClick={() => setDetailsId(o.organization_id)}>
              <IconEye size={16} />
            </ActionIcon>
          </Tooltip>
          <Tooltip label="Change status">
            <ActionIcon
              variant="subtle"
              color="yellow"
              aria-label={`Change status of ${o.organization_id}`}
              onClick={() => setStatusTarget({ organization: o })}
            >
              <IconToggleRight size={16} />
            </ActionIcon>
          </Tooltip>
          <Tooltip label="Delete">
            <ActionIcon variant="subtle" color="red" aria-label={`Delete ${o.organization_id}`} onClick={() => setDeleteId(o.organization_id)}>
              <IconTrash size={16} />
            </ActionIcon>
          </Tooltip>
        </Group>
      ),
    },
  ];

  const n = (v: number | undefined) => (v ?? 0).toLocaleString();
  return (
    <Stack gap="lg">
      <Group justify="space-between">
        <Title order={3}>Organization Management</Title>
        <Button leftSection={<IconPlus size={16} />} onClick={addModal.open}>
          Add Organization
        </Button>
      </Group>
      <SimpleGrid cols={{ base: 2, md: 4 }} spacing="md">
        <StatCard label="Total Organizations" value={n(stats.data?.total_organizations)} loading={stats.isPending} icon={<IconBuildingCommunity size={18} />} />
        <StatCard label="Active Organizations" value={n(stats.data?.active_organizations)} loading={stats.isPending} color="green" icon={<IconBuilding size={18} />} />
        <StatCard
          label="Suspended"
          value={n(stats.data?.suspended_organizations)}
          loading={stats.isPending}
          color="yellow"
          icon={<IconPlayerPause size={18} />}
          hint={stats.data?.disabled_organizations ? `${stats.data.disabled_organizations} disabled` : undefined}
        />
        <StatCard label="Total Users" value={n(stats.data?.total_users)} loading={stats.isPending} color="blue" icon={<IconUsers size={18} />} />
      </SimpleGrid>
      <Card padding="md" radius="md">
        <Group gap="sm" mb="md" wrap="wrap">
          <TextInput
            aria-label="Search organizations"
            placeholder="Search by ID, name or external key..."
            leftSection={<IconSearch size={16} />}
            value={search}
            onChange={(e) => setSearch(e.currentTarget.value)}
            style={{ flex: '1 1 260px', maxWidth: 420 }}
          />
          <Select aria-label="Status filter" w={170} data={STATUS_FILTERS} value={status} onChange={(v) => setStatus(v ?? '')} allowDeselect={false} />
        </Group>
        <DataTable
          caption="Organizations"
          columns={columns}
          rows={orgs.data?.data}
          rowKey={(o) => o.organization_id}
          loading={orgs.isPending}
          error={orgs.isError ? errorMessage(orgs.error, 'Failed to load organizations') : null}
          onRetry={() => void orgs.refetch()}
          emptyText="No organizations found"
          minWidth={860}
        />
        <PaginationControl page={page} total={orgs.data?.total ?? 0} pageSize={ORGANIZATION_PAGE_SIZE} onPageChange={setPage} itemLabel="organizations" />
      </Card>

      <AddOrganizationModal opened={addOpened} onClose={addModal.close} />
      <OrganizationDetailsModal
        organizationId={detailsId}
        onClose={() => setDetailsId(null)}
        onChangeStatus={(organization, next) => setStatusTarget({ organization, status: next })}
        onDelete={(id) => setDeleteId(id)}
      />
      <ChangeStatusModal target={statusTarget} onClose={() => setStatusTarget(null)} />
      <DeleteOrganizationModal organizationId={deleteId} onClose={() => setDeleteId(null)} onDeleted={() => setDetailsId(null)} />
    </Stack>
  );
}
