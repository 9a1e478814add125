import '@mantine/dates/styles.css';
import { Badge, Button, Card, Code, Group, Popover, Select, Stack, Text, TextInput } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { useDebouncedValue } from '@mantine/hooks';
import { IconCalendar, IconChevronLeft, IconChevronRight, IconFileDownload, IconRefresh, IconUser } from '@tabler/icons-react';
import { useState } from 'react';
import { PageHeader } from '@/components/layout/page-header';
import { DataTable, type Column } from '@/components/ui/data-table';
import { DateText } from '@/components/ui/date-text';
import { PageError } from '@/components/ui/page-error';
import { errorMessage } from '@/lib/api-client';
import { useBusinessToday } from '@/lib/business-day';
import { useSession } from '@/lib/session';
import { useExportAuditLog } from '../api/export-audit-log';
import { CATEGORY_LABELS, useAuditLog, type AuditCategory, type AuditEntry, type AuditFilters } from '../api/get-audit-log';

export const LOAD_FAILED = 'Failed to load the activity log';

const KIND_COLORS: Record<AuditCategory, string> = {
  sign_ins: 'gray',
  team: 'grape',
  payments: 'green',
  tokens: 'blue',
  devices: 'cyan',
  customers: 'teal',
  plans: 'indigo',
  collections: 'orange',
  settings: 'yellow',
  invoices: 'pink',
};

const KIND_OPTIONS = (Object.keys(CATEGORY_LABELS) as AuditCategory[]).map((value) => ({ value, label: CATEGORY_LABELS[value] }));

/** A recorded value as one line: text as it is, anything else as JSON. */
const shown = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));

/** What an entry recorded besides its description, one line per field. */
function Details({ entry }: { entry: AuditEntry }) {
  const fields = Object.entries(entry.details ?? {});
  if (!fields.length) return null;
  return (
    <Popover width={420} position="bottom-end" shadow="md" withinPortal>
      <Popover.Target>
        <Button size="compact-xs" variant="subtle" aria-label={`Details of entry ${entry.id}`}>
          Details
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap={6} aria-label={`Details of entry ${entry.id}`}>
          {fields.map(([key, value]) => (
            <Group key={key} gap="xs" wrap="nowrap" align="flex-start">
              <Text size="xs" c="dimmed" fw={600} miw={110}>
                {key.replace(/_/g, ' ')}
              </Text>
              <Code style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>{shown(value)}</Code>
            </Group>
          ))}
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}

const columns: Column<AuditEntry>[] = [
  { key: 'when', header: 'When', render: (e) => <DateText value={e.timestamp} withTime /> },
  {
    key: 'who',
    header: 'User',
    render: (e) => (
      <Stack gap={0}>
        <Text size="sm" fw={500} c={e.actor ? undefined : 'dimmed'}>
          {e.actor ?? 'System'}
        </Text>
        {e.ip ? (
          <Text size="xs" c="dimmed" ff="monospace">
            {e.ip}
          </Text>
        ) : null}
      </Stack>
    ),
  },
  {
    key: 'kind',
    header: 'Kind',
    render: (e) =>
      e.category ? (
        <Badge variant="light" radius="sm" color={KIND_COLORS[e.category]} tt="none" miw="max-content">
          {CATEGORY_LABELS[e.category]}
        </Badge>
      ) : (
        <Text size="sm" c="dimmed">
          {e.action}
        </Text>
      ),
  },
  { key: 'what', header: 'What Happened', render: (e) => <Text size="sm">{e.description}</Text> },
  { key: 'details', header: '', align: 'right', render: (e) => <Details entry={e} /> },
];

/**
 * Activity Log (owners and admins): who did what in the organization, newest
 * first: sign-ins, team changes, payments matched, rejected and reversed,
 * tokens, devices, customers, plans and settings. Pages go back in time from
 * the newest (Older / Newer), each from where the one before ended.
 */
export default function AuditLogRoute() {
  const { user } = useSession();
  if (user && user.role !== 'owner' && user.role !== 'admin' && user.role !== 'super_admin') {
    return (
      <>
        <PageHeader title="Activity Log" />
        <PageError title="Not available" message="Only owners and admins can see the activity log." />
      </>
    );
  }
  return <AuditLog />;
}

function AuditLog() {
  const [category, setCategory] = useState<AuditCategory | null>(null);
  const [actorInput, setActorInput] = useState('');
  const [actor] = useDebouncedValue(actorInput.trim(), 400);
  const [range, setRange] = useState<[string | null, string | null]>([null, null]);
  const today = useBusinessToday();
  // The cursors of the pages before this one: [] on the newest page.
  const [cursors, setCursors] = useState<string[]>([]);

  const [from, to] = range;
  const filters: AuditFilters = {
    ...(category ? { category } : {}),
    ...(actor ? { actor } : {}),
    ...(from && to ? { from, to } : {}),
  };
  const filterKey = JSON.stringify(filters);
  const [shownFor, setShownFor] = useState(filterKey);
  if (shownFor !== filterKey) {
    // New filters start again from the newest entries.
    setShownFor(filterKey);
    setCursors([]);
  }
  const cursor = cursors.length ? cursors[cursors.length - 1]! : null;
  const log = useAuditLog(filters, cursor);
  const page = log.data;
  const exporter = useExportAuditLog();

  return (
    <>
      <PageHeader
        title="Activity Log"
        subtitle="Who did what in your organization, newest first."
        actions={
          <Group gap="sm">
            <Button
              variant="default"
              leftSection={<IconFileDownload size={16} />}
              onClick={() => exporter.mutate(filters)}
              loading={exporter.isPending}
              title="Every entry the filters match, as a CSV file"
            >
              Export CSV
            </Button>
            <Button variant="default" leftSection={<IconRefresh size={16} />} onClick={() => void log.refetch()} loading={log.isFetching && !log.isPending}>
              Refresh
            </Button>
          </Group>
        }
      />
      <Card padding="md" radius="md">
        <Group gap="sm" mb="md" align="flex-end" wrap="wrap">
          <Select label="Kind" placeholder="Every kind" data={KIND_OPTIONS} value={category} onChange={(v) => setCategory(v as AuditCategory | null)} clearable w={200} />
          <TextInput
            label="User"
            placeholder="Username"
            leftSection={<IconUser size={16} />}
            value={actorInput}
            onChange={(e) => setActorInput(e.currentTarget.value)}
            w={200}
          />
          <DatePickerInput
            type="range"
            label="Dates"
            placeholder="Any day"
            value={range}
            onChange={(v) => setRange(v as [string | null, string | null])}
            valueFormat="D MMM YYYY"
            maxDate={today}
            allowSingleDateInRange
            clearable
            leftSection={<IconCalendar size={16} />}
            popoverProps={{ withinPortal: true }}
            w={260}
          />
        </Group>
        <DataTable
          caption="Activity Log"
          columns={columns}
          rows={page?.data}
          rowKey={(e) => e.id}
          loading={log.isPending}
          error={log.isError ? errorMessage(log.error, LOAD_FAILED) : null}
          onRetry={() => void log.refetch()}
          emptyText={Object.keys(filters).length ? 'Nothing matches these filters' : 'Nothing recorded yet'}
          minWidth={860}
        />
        <Group justify="space-between" mt="md">
          <Text size="sm" c="dimmed">
            {page?.data.length ? `Page ${cursors.length + 1} · ${page.data.length} ${page.data.length === 1 ? 'entry' : 'entries'}` : null}
          </Text>
          <Group gap="xs">
            <Button
              variant="default"
              size="xs"
              leftSection={<IconChevronLeft size={14} />}
              disabled={!cursors.length}
              onClick={() => setCursors((c) => c.slice(0, -1))}
            >
              Newer
            </Button>
            <Button
              variant="default"
              size="xs"
              rightSection={<IconChevronRight size={14} />}
              disabled={!page?.next_cursor || log.isPlaceholderData}
              onClick={() => page?.next_cursor && setCursors((c) => [...c, page.next_cursor!])}
            >
              Older
            </Button>
          </Group>
        </Group>
      </Card>
    </>
  );
}
