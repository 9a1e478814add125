import { Badge, Button, Card, Group, Select, Stack, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { IconFilter } from '@tabler/icons-react';
import { useState } from 'react';
import { DataTable, type Column } from '@/components/ui/data-table';
import { formatDate } from '@/components/ui/date-text';
import { PaginationControl } from '@/components/ui/pagination-control';
import { errorMessage } from '@/lib/api-client';
import { TOKEN_LOG_PAGE_SIZE, useTokenLogs } from '../api/token-logs';
import type { AdminTokenLog } from '../api/types';

/** A token with its first 20 characters then an ellipsis. */
export const shortToken = (t: string) => (t.length > 20 ? `${t.slice(0, 20)}…` : t);

type StatusFilter = '' | 'success' | 'error';

export function TokenLogsTab() {
  const [orgInput, setOrgInput] = useState('');
  const [statusInput, setStatusInput] = useState<StatusFilter>('');
  const [filter, setFilter] = useState<{ org: string; status: StatusFilter }>({ org: '', status: '' });
  const [page, setPage] = useState(1);
  const logs = useTokenLogs({
    limit: TOKEN_LOG_PAGE_SIZE,
    offset: (page - 1) * TOKEN_LOG_PAGE_SIZE,
    organization_id: filter.org || undefined,
    status_filter: filter.status || undefined,
  });

  const columns: Column<AdminTokenLog>[] = [
    { key: 'org', header: 'Organization', render: (l) => l.organization_id },
    { key: 'serial', header: 'Serial Number', render: (l) => <Text size="sm" ff="monospace">{l.serial_number}</Text> },
    {
      key: 'token',
      header: 'Token',
      render: (l) => (
        <Tooltip label={l.generated_token} withinPortal>
          <Text size="sm" ff="monospace">
            {shortToken(l.generated_token)}
          </Text>
        </Tooltip>
      ),
    },
    { key: 'type', header: 'Type', render: (l) => l.token_type.replace(/_/g, ' ') },
    {
      key: 'status',
      header: 'Status',
      render: (l) => (
        <Badge miw="max-content" color={l.status === 'success' ? 'green' : 'red'} variant="light" radius="sm">
          {l.status === 'success' ? 'Success' : 'Error'}
        </Badge>
      ),
    },
    { key: 'created', header: 'Created', render: (l) => formatDate(l.created_at, true) },
  ];

  return (
    <Stack gap="lg">
      <Title order={3}>Token Generation Logs</Title>
      <Card padding="md" radius="md">
        <Group gap="sm" mb="md" wrap="wrap" align="flex-end">
          <TextInput
            label="Organization ID"
            placeholder="All organizations"
            value={orgInput}
            onChange={(e) => setOrgInput(e.currentTarget.value)}
            w={240}
          />
          <Select
            label="Status"
            w={160}
            allowDeselect={false}
            data={[
              { value: '', label: 'All Status' },
              { value: 'success', label: 'Success' },
              { value: 'error', label: 'Error' },
            ]}
            value={statusInput}
            onChange={(v) => setStatusInput((v ?? '') as StatusFilter)}
          />
          <Button
            leftSection={<IconFilter size={16} />}
            variant="light"
            onClick={() => {
              setFilter({ org: orgInput.trim(), status: statusInput });
              setPage(1);
            }}
          >
            Filter
          </Button>
        </Group>
        <DataTable
          caption="Token logs"
          columns={columns}
          rows={logs.data?.data}
          rowKey={(l) => l.id}
          loading={logs.isPending}
          error={logs.isError ? errorMessage(logs.error, 'Failed to load token logs') : null}
          onRetry={() => void logs.refetch()}
          emptyText="No token logs found"
          minWidth={860}
        />
        <PaginationControl page={page} total={logs.data?.total ?? 0} pageSize={TOKEN_LOG_PAGE_SIZE} onPageChange={setPage} itemLabel="tokens" />
      </Card>
    </Stack>
  );
}
