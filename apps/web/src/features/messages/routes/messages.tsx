import { Button, Card, Group, Select, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconRefresh, IconSearch } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { PageHeader } from '@/components/layout/page-header';
import { PaginationControl } from '@/components/ui/pagination-control';
import { errorMessage } from '@/lib/api-client';
import { managesOrganization, useSession } from '@/lib/session';
import { DEFAULT_MESSAGE_PAGE_SIZE, useMessages } from '../api/get-messages';
import { messageKeys } from '../api/keys';
import { MESSAGE_PAGE_SIZES, type MatchTarget, type MessageRow } from '../api/types';
import { HeldPaymentsCard } from '../components/held-payments';
import { MatchPaymentModal } from '../components/match-payment-modal';
import { RejectPaymentModal } from '../components/reject-payment-modal';
import { MessageStatsCards } from '../components/message-stats';
import { MessagesTable } from '../components/messages-table';

/** The table offers Match only on a message with a payment. */
const messageMatchTarget = (m: MessageRow): MatchTarget | null =>
  m.payment_id === null
    ? null
    : { payment_id: m.payment_id, amount: m.amount, currency: m.currency ?? null, transaction_code: m.transaction_code, from: m.sender, text: m.Incoming };

/** Message History: mobile-money confirmations received, and the replies and payment reminders sent. */
export default function MessagesRoute() {
  const qc = useQueryClient();
  const { user } = useSession();
  const canMatch = managesOrganization(user);
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 500);
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState<number>(DEFAULT_MESSAGE_PAGE_SIZE);
  const [matching, setMatching] = useState<MatchTarget | null>(null);
  const [rejecting, setRejecting] = useState<MatchTarget | null>(null);

  const [lastKey, setLastKey] = useState(`${debounced}|${pageSize}`);
  if (`${debounced}|${pageSize}` !== lastKey) {
    setLastKey(`${debounced}|${pageSize}`);
    setPage(1);
  }

  const messages = useMessages({ page, page_size: pageSize, search: debounced || undefined });

  return (
    <>
      <PageHeader
        title="Message History"
        subtitle="Mobile-money confirmations received, and the token replies and payment reminders sent to customers."
        actions={
          <Button
            variant="default"
            leftSection={<IconRefresh size={16} />}
            onClick={() => void qc.invalidateQueries({ queryKey: messageKeys.all })}
            loading={messages.isFetching && !messages.isPending}
          >
            Refresh
          </Button>
        }
      />
      <MessageStatsCards />
      <HeldPaymentsCard canMatch={canMatch} onMatch={setMatching} onReject={setRejecting} />
      <Card padding="md" radius="md">
        <Group justify="space-between" gap="sm" mb="md" wrap="wrap">
          <TextInput
            aria-label="Search messages"
            placeholder="Search messages or phone numbers..."
            leftSection={<IconSearch size={16} />}
            value={search}
            onChange={(e) => setSearch(e.currentTarget.value)}
            style={{ flex: '1 1 280px', maxWidth: 460 }}
          />
          <Select
            aria-label="Page size"
            w={120}
            allowDeselect={false}
            value={String(pageSize)}
            onChange={(v) => v && setPageSize(Number(v))}
            data={MESSAGE_PAGE_SIZES.map((n) => ({ value: String(n), label: `${n} / page` }))}
          />
        </Group>
        <MessagesTable
          rows={messages.data?.data}
          loading={messages.isPending}
          error={messages.isError ? errorMessage(messages.error, 'Failed to fetch messages') : null}
          onRetry={() => void messages.refetch()}
          searching={debounced !== ''}
          canMatch={canMatch}
          onMatch={(m) => setMatching(messageMatchTarget(m))}
        />
        <PaginationControl page={page} total={messages.data?.total ?? 0} pageSize={pageSize} onPageChange={setPage} itemLabel="messages" />
      </Card>
      <MatchPaymentModal payment={matching} onClose={() => setMatching(null)} />
      <RejectPaymentModal payment={rejecting} onClose={() => setRejecting(null)} />
    </>
  );
}
