import { Alert, Badge, ScrollArea, Stack, Table, Text, Title } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import { formatMoney } from '@/components/ui/money';
import type { StatementImportReply } from '../api/types';

const n = (v: number) => v.toLocaleString();

/** An M-Pesa statement is in shillings: the importer reads every row as KES. */
const STATEMENT_CURRENCY = 'KES';

/** A row staff should look at: money held for a match, or a row that was not recorded. */
interface FlaggedRow {
  row: number;
  result: 'Held' | 'Rejected';
  reason: string;
  held?: StatementImportReply['held'][number];
}

function flaggedRows(report: StatementImportReply): FlaggedRow[] {
  const held = report.held.map((h): FlaggedRow => ({ row: h.row, result: 'Held', reason: h.reason, held: h }));
  const rejected = report.errors.map((e): FlaggedRow => ({ row: e.row, result: 'Rejected', reason: e.message }));
  return [...held, ...rejected].sort((a, b) => a.row - b.row);
}

/** What reconciling a statement did, row by row where staff have something to do. */
export function StatementSummary({ report }: { report: StatementImportReply }) {
  const flagged = flaggedRows(report);
  const outcomes: { label: string; rows: number; meaning: string; color?: string }[] = [
    { label: 'Applied', rows: report.applied, meaning: 'Recorded and applied to the device: tokens and reply SMS as the plan allows', color: 'green' },
    { label: 'Held for matching', rows: report.held.length, meaning: 'Recorded as pending: no single device matches, listed below', color: 'orange' },
    { label: 'Already recorded', rows: report.duplicates, meaning: 'Receipts recorded before (an earlier statement, an SMS or a staff entry): skipped' },
    { label: 'Not money received', rows: report.not_received, meaning: 'Withdrawals, charges and transactions not completed: skipped' },
    { label: 'Rejected', rows: report.errors.length, meaning: 'Rows that could not be read or recorded, listed below', color: 'red' },
  ];
  return (
    <Stack gap="md" aria-label="Statement summary">
      <Alert color={flagged.length ? 'yellow' : 'green'} icon={<IconCircleCheck size={18} />} title="Statement reconciled">
        {n(report.imported)} new {report.imported === 1 ? 'payment' : 'payments'} recorded ({n(report.applied)} applied, {n(report.held.length)} held),{' '}
        {n(report.skipped)} skipped, {n(report.errors.length)} rejected.
      </Alert>
      <Table aria-label="Statement result" fz="sm" verticalSpacing={6}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Result</Table.Th>
            <Table.Th ta="right" w={64}>
              Rows
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {outcomes.map((o) => (
            <Table.Tr key={o.label}>
              <Table.Td>
                <Text size="sm" fw={600}>
                  {o.label}
                </Text>
                <Text size="xs" c="dimmed">
                  {o.meaning}
                </Text>
              </Table.Td>
              <Table.Td ta="right">
                <Text size="lg" fw={700} c={o.rows ? o.color : 'dimmed'} style={{ fontVariantNumeric: 'tabular-nums' }}>
                  {n(o.rows)}
                </Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {flagged.length ? (
        <Stack gap="xs">
          <Title order={5}>Rows to look at</Title>
          {/* Three columns, the receipt under the reason: it reads on a phone without scrolling sideways. */}
          <ScrollArea.Autosize mah={360} type="auto">
            <Table striped aria-label="Rows to look at" fz="sm">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w={56}>Row</Table.Th>
                  <Table.Th w={104}>Result</Table.Th>
                  <Table.Th>Reason</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {flagged.map((f, i) => (
                  <Table.Tr key={`${f.row}-${f.result}-${i}`}>
                    <Table.Td>{f.row}</Table.Td>
                    <Table.Td>
                      <Badge miw="max-content" variant="light" radius="sm" color={f.result === 'Held' ? 'orange' : 'red'}>
                        {f.result}
                      </Badge>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                        {f.reason}
                      </Text>
                      {f.held ? (
                        <Text size="xs" c="dimmed">
                          Receipt{' '}
                          <Text span inherit ff="monospace">
                            {f.held.transaction_code}
                          </Text>{' '}
                          · <span style={{ whiteSpace: 'nowrap' }}>{formatMoney(f.held.amount, STATEMENT_CURRENCY)}</span> · payment #{f.held.payment_id}
                        </Text>
                      ) : null}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollArea.Autosize>
        </Stack>
      ) : null}
    </Stack>
  );
}
