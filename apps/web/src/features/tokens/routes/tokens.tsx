import { Badge, Button, Card, Stack, Text } from '@mantine/core';
import { IconBolt, IconRefresh } from '@tabler/icons-react';
import { useState } from 'react';
import { PageHeader } from '@/components/layout/page-header';
import { DataTable, type Column } from '@/components/ui/data-table';
import { DateText } from '@/components/ui/date-text';
import { PaginationControl } from '@/components/ui/pagination-control';
import { SearchBar, useSearchTerm } from '@/components/ui/search-bar';
import { StatusBadge } from '@/components/ui/status-badge';
import { TokenText, tokenTypeLabel } from '@/components/ui/token-text';
import { TOKENS_PAGE_SIZE, useTokenLogs } from '../api/get-token-logs';
import type { TokenLog, TokenReply } from '../api/types';
import { GenerateTokenModal } from '../components/generate-token-modal';
import { TokenResultModal } from '../components/token-result-modal';

export const LOAD_FAILED = 'Failed to load tokens';

const columns: Column<TokenLog>[] = [
  { key: 'token', header: 'Token', render: (t) => <TokenText token={t.token_value} size="sm" fw={500} /> },
  {
    key: 'serial',
    header: 'Serial Number',
    render: (t) => (
      <Text size="sm" ff="monospace">
        {t.serial_number}
      </Text>
    ),
  },
  { key: 'customer', header: 'Customer', render: (t) => t.customer_name ?? <Text span size="sm" c="dimmed">Unassigned</Text> },
  {
    key: 'type',
    header: 'Type',
    render: (t) => (
      <Badge variant="outline" color="gray" radius="sm" tt="none">
        {tokenTypeLabel(t.token_type)}
      </Badge>
    ),
  },
  { key: 'days', header: 'Days', align: 'right', render: (t) => t.days_generated },
  { key: 'status', header: 'Status', render: (t) => <StatusBadge kind="token" status={t.status} isValid={t.is_valid} /> },
  { key: 'created', header: 'Created', render: (t) => <DateText value={t.created_at} withTime /> },
];

export default function TokensRoute() {
  const [page, setPage] = useState(1);
  const search = useSearchTerm({ onApply: () => setPage(1) });
  const [generating, setGenerating] = useState(false);
  const [result, setResult] = useState<TokenReply | null>(null);

  const logs = useTokenLogs({
    limit: TOKENS_PAGE_SIZE,
    offset: (page - 1) * TOKENS_PAGE_SIZE,
    ...(search.term ? { search: search.term } : {}),
  });

  return (
    <>
      <PageHeader
        title="Tokens"
        subtitle="Unlock codes generated for your devices, newest first."
        actions={
          <>
            <Button leftSection={<IconBolt size={16} />} onClick={() => setGenerating(true)}>
              Generate Token
            </Button>
            <Button
              variant="default"
              leftSection={<IconRefresh size={16} />}
              onClick={() => void logs.refetch()}
              loading={logs.isFetching && !logs.isPending}
            >
              Refresh
            </Button>
          </>
        }
      />
      <Card padding="lg">
        <Stack gap="md">
          <SearchBar
            label="Search tokens"
            placeholder="Search tokens by ID, customer name, status..."
            value={search.input}
            onChange={search.setInput}
            onSubmit={search.submit}
            onClear={search.clear}
          />
          <DataTable
            caption="Tokens"
            columns={columns}
            rows={logs.data?.items}
            rowKey={(t) => t.id}
            loading={logs.isPending}
            error={logs.isError ? LOAD_FAILED : null}
            onRetry={() => void logs.refetch()}
            emptyText={search.term ? 'No tokens found matching your search' : 'No tokens found'}
            emptyHint={search.term ? undefined : 'Generate a token for a device and it will appear here.'}
            minWidth={860}
          />
          <PaginationControl page={page} total={logs.data?.total ?? 0} pageSize={TOKENS_PAGE_SIZE} onPageChange={setPage} />
        </Stack>
      </Card>
      <GenerateTokenModal opened={generating} onClose={() => setGenerating(false)} onGenerated={setResult} />
      <TokenResultModal token={result} onClose={() => setResult(null)} />
    </>
  );
}
