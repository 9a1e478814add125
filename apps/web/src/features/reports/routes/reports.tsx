import { Button, Card, Group, SimpleGrid, Skeleton, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconArrowRight, IconFileTypeCsv, IconFileTypePdf, IconFileUpload, IconRefresh } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import type { RepaymentStanding } from '@kidogo/contracts';
import { useSearchParams } from 'react-router-dom';
import { PageHeader } from '@/components/layout/page-header';
import { AgentSelect } from '@/features/collections/components/agent-filter';
import { DateRangePicker, type DayRange } from '@/components/ui/date-range-picker';
import { formatDate } from '@/components/ui/date-text';
import { ErrorAlert } from '@/components/ui/error-alert';
import { useBusinessToday } from '@/lib/business-day';
import { managesOrganization, useSession } from '@/lib/session';
import { useDownloadReport } from '../api/download-report';
import { useReport } from '../api/get-report';
import { REPORT_KINDS, type ReportKind } from '../api/types';
import { REPORTS, reportInfo } from '../components/report-catalog';
import { ReportChart } from '../components/report-chart';
import { REPORT_PAGE_SIZE, ReportTable } from '../components/report-table';
import { StandingSelect } from '../components/standing-select';
import { UploadStatementModal } from '../components/upload-statement-modal';

export const LOAD_FAILED = 'Failed to load reports';

/**
 * One report with its period, downloads and result. `revealRequest` counts
 * the Generate taps on the cards above: each one brings the result into view
 * when it arrives, since on a phone it is drawn below the fold.
 */
function ReportView({ kind, revealRequest }: { kind: ReportKind; revealRequest: number }) {
  const info = reportInfo(kind);
  const today = useBusinessToday();
  const [range, setRange] = useState<DayRange>(() => info.defaultRange(today));
  // The customer report has a row per customer (a million on a large portfolio): the server sends it a page at a time.
  const paged = kind === 'customers';
  const [page, setPage] = useState(1);
  // The portfolio report of one sales agent's customers: does what an agent sells repay like the rest?
  const byAgent = kind === 'portfolio';
  const [agent, setAgent] = useState<string | null>(null);
  // The customer report of some repayment standings: Paid off and On track are the customers to offer a second product to.
  const byStanding = kind === 'customers';
  const [standing, setStanding] = useState<RepaymentStanding[]>([]);
  const chosen = { ...(agent === null ? {} : { agent }), ...(standing.length ? { standing } : {}) };
  const report = useReport(kind, range.from, range.to, paged ? { limit: REPORT_PAGE_SIZE, offset: (page - 1) * REPORT_PAGE_SIZE } : null, chosen);
  const downloader = useDownloadReport();
  const busy = downloader.isPending ? downloader.variables?.format : null;

  const section = useRef<HTMLElement>(null);
  // The Generate inside this card asks too: the result may be below its buttons.
  const [localRequest, setLocalRequest] = useState(0);
  const request = `${revealRequest}-${localRequest}`;
  // Opened from a link, not a tap: the page stays where it is.
  const revealed = useRef(revealRequest ? null : request);
  const arrived = !report.isFetching && (report.isError || (report.isSuccess && !report.isPlaceholderData));
  useEffect(() => {
    if (!arrived || revealed.current === request) return;
    revealed.current = request;
    section.current?.scrollIntoView({ behavior: 'smooth', block: 'start' });
  }, [arrived, request]);

  return (
    <Card
      ref={section}
      padding="lg"
      component="section"
      aria-label={info.title}
      // Clear of the fixed header when scrolled to.
      style={{ scrollMarginTop: 'calc(var(--app-shell-header-offset, 60px) + var(--mantine-spacing-md))' }}
    >
      <Stack gap="md">
        <Group justify="space-between" align="flex-end" wrap="wrap" gap="sm">
          <Stack gap={2}>
            <Title order={3}>{info.title}</Title>
            <Text size="sm" c="dimmed">
              {info.description}
            </Text>
          </Stack>
          <Group gap="sm" align="flex-end" wrap="wrap">
            <DateRangePicker
              value={range}
              onChange={(r) => {
                setRange(r);
                setPage(1);
              }}
              label="Period"
            />
            {byAgent ? <AgentSelect value={agent} onChange={setAgent} /> : null}
            {byStanding ? (
              <StandingSelect
                value={standing}
                onChange={(s) => {
                  setStanding(s);
                  setPage(1);
                }}
              />
            ) : null}
            <Button
              variant="default"
              leftSection={<IconRefresh size={16} />}
              onClick={() => {
                setLocalRequest((n) => n + 1);
                void report.refetch();
              }}
              loading={report.isFetching}
            >
              Generate
            </Button>
            <Button
              variant="light"
              leftSection={<IconFileTypeCsv size={16} />}
              loading={busy === 'csv'}
              disabled={downloader.isPending && busy !== 'csv'}
              onClick={() => downloader.mutate({ report: kind, ...range, ...chosen, format: 'csv' })}
            >
              Download CSV
            </Button>
            <Button
              variant="light"
              leftSection={<IconFileTypePdf size={16} />}
              loading={busy === 'pdf'}
              disabled={downloader.isPending && busy !== 'pdf'}
              onClick={() => downloader.mutate({ report: kind, ...range, ...chosen, format: 'pdf' })}
            >
              Download PDF
            </Button>
          </Group>
        </Group>

        {report.isError ? (
          <ErrorAlert message={LOAD_FAILED} onRetry={() => void report.refetch()} retrying={report.isFetching} />
        ) : report.isPending ? (
          <Stack gap="sm" aria-label="Loading report">
            <Skeleton h={220} />
            <Skeleton h={32} />
            <Skeleton h={32} />
          </Stack>
        ) : report.data ? (
          <Stack gap="md" style={{ opacity: report.isPlaceholderData ? 0.6 : 1 }}>
            <ReportChart report={report.data} />
            <ReportTable key={`${kind}-${range.from}-${range.to}-${agent ?? ''}-${standing.join('+')}`} report={report.data} paging={paged ? { page, onPageChange: setPage } : undefined} />
            <Text size="xs" c="dimmed">
              {formatDate(range.from)} – {formatDate(range.to)} · generated {formatDate(report.data.generated_at, true)}
              {/* What the figures rest on: the agent report's commission rates. */}
              {report.data.note ? ` · ${report.data.note}` : null}
            </Text>
          </Stack>
        ) : null}
      </Stack>
    </Card>
  );
}

export default function ReportsRoute() {
  const [params, setParams] = useSearchParams();
  const requested = params.get('report');
  const selected = (REPORT_KINDS as readonly string[]).includes(requested ?? '') ? (requested as ReportKind) : null;
  const { user } = useSession();
  // The API takes statements from owners and admins only (staff get a 403): staff are not offered it.
  const canReconcile = managesOrganization(user);
  const [uploading, setUploading] = useState(false);
  const [revealRequest, setRevealRequest] = useState(0);

  return (
    <>
      <PageHeader
        title="Reports"
        subtitle="Revenue, customers, tokens, repossessions, sales agents, service tickets, the portfolio by month of sale, the customers' documents, Ask to Pay requests, device swaps and discounts over any period, on screen or as CSV and PDF."
        actions={
          canReconcile ? (
            <Button leftSection={<IconFileUpload size={16} />} onClick={() => setUploading(true)}>
              Upload M-Pesa Statement
            </Button>
          ) : null
        }
      />
      {canReconcile ? <UploadStatementModal opened={uploading} onClose={() => setUploading(false)} /> : null}
      <Stack gap="lg">
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="lg">
          {REPORTS.map((r) => {
            const active = selected === r.kind;
            return (
              <Card
                key={r.kind}
                padding="lg"
                style={active ? { borderColor: 'var(--mantine-primary-color-filled)', boxShadow: '0 0 0 1px var(--mantine-primary-color-filled)' } : undefined}
              >
                <Stack gap="sm" h="100%" justify="space-between">
                  <Stack gap="sm">
                    <ThemeIcon size={40} radius="md" variant="light" color={r.color}>
                      <r.icon size={22} />
                    </ThemeIcon>
                    <Title order={4}>{r.title}</Title>
                    <Text size="sm" c="dimmed">
                      {r.description}
                    </Text>
                  </Stack>
                  <Group>
                    <Button
                      variant={active ? 'filled' : 'light'}
                      rightSection={<IconArrowRight size={16} />}
                      aria-label={`Generate ${r.title}`}
                      onClick={() => {
                        setParams({ report: r.kind });
                        setRevealRequest((n) => n + 1);
                      }}
                    >
                      Generate
                    </Button>
                  </Group>
                </Stack>
              </Card>
            );
          })}
        </SimpleGrid>
        {selected ? <ReportView key={selected} kind={selected} revealRequest={revealRequest} /> : null}
      </Stack>
    </>
  );
}
