import { Alert, Badge, Button, Group, Modal, Stack, Table, Text } from '@mantine/core';
import { IconChecklist, IconDownload, IconUpload } from '@tabler/icons-react';
import { useState } from 'react';
import { ACCOUNT_IMPORT_COLUMNS, ACCOUNT_IMPORT_REQUIRED, type AccountsImportReport } from '@kidogo/contracts';
import { ErrorAlert } from '@/components/ui/error-alert';
import { formatMoney } from '@/components/ui/money';
import { CsvFileInput, ImportErrors, importOutcome, OUTCOME, ReportActions } from '@/components/ui/csv-import-modal';
import { UploadProgressBar } from '@/components/ui/upload-progress';
import { uploadActions, useFileUpload } from '@/hooks/use-file-upload';
import { errorMessage, saveBlob } from '@/lib/api-client';
import { toast } from '@/lib/notify';
import { useOrganizationCurrency } from '@/lib/organization-currency';
import { useImportAccounts } from '../api/import-accounts';

export const ACCOUNT_CHECK_FAILED = 'Failed to check the file';
export const ACCOUNT_IMPORT_FAILED = 'Failed to import accounts';
export const ACCOUNT_EXAMPLE_NAME = 'accounts-example.csv';

type Column = (typeof ACCOUNT_IMPORT_COLUMNS)[number];

const MEANINGS: Record<Column, string> = {
  serial_number: 'The device, as imported with the devices’ CSV.',
  id_number: 'The ID number of the customer who holds it, as imported with the customers’ CSV.',
  template: 'The payment template’s name or number; left out, the customer’s plan.',
  start_date: 'The day the account began: YYYY-MM-DD or DD/MM/YYYY.',
  paid: 'What the customer paid on the device before; left out, 0.',
  credit_until: 'When its credit runs out: a date, or "YYYY-MM-DD HH:MM"; left out, worked out from what was paid on the plan.',
};

/** The header line and two rows: one with every column, one leaving the optional ones to Kidogo. */
export const ACCOUNT_EXAMPLE_CSV = [
  ACCOUNT_IMPORT_COLUMNS.join(','),
  'SHS-0042,12345678,Solar Home 50,2025-03-01,4500,2026-12-20',
  'SHS-0043,23456789,,15/06/2025,1200,',
].join('\n');

const isRequired = (c: Column) => (ACCOUNT_IMPORT_REQUIRED as readonly string[]).includes(c);

const count = (n: number, one: string, many: string) => `${n.toLocaleString()} ${n === 1 ? one : many}`;

/** Rows refused for a problem, as against those skipped because their device was already brought over. */
const refused = (r: AccountsImportReport) => Math.max(r.skipped - r.duplicates, 0);

/** "3 accounts can be imported (1 paid off, 2 in credit); 1 row has problems". */
export function checkSummary(r: AccountsImportReport): string {
  const parts = [`${count(r.imported, 'account', 'accounts')} can be imported (${r.paid_off.toLocaleString()} paid off, ${r.in_credit.toLocaleString()} in credit)`];
  if (r.duplicates) parts.push(`${count(r.duplicates, 'was', 'were')} already brought over`);
  if (refused(r)) parts.push(`${count(refused(r), 'row has', 'rows have')} problems`);
  return parts.join('; ');
}

/** "Imported 3 accounts; 1 was already brought over; 2 rows refused". */
export function importSummary(r: AccountsImportReport): string {
  const parts = [`Imported ${count(r.imported, 'account', 'accounts')}`];
  if (r.duplicates) parts.push(`${count(r.duplicates, 'was', 'were')} already brought over`);
  if (refused(r)) parts.push(`${count(refused(r), 'row', 'rows')} refused`);
  return parts.join('; ');
}

/** What a check found, or what the import did: the sentence, what the customers had paid before, and each refused row. */
function AccountsReport({ report }: { report: AccountsImportReport }) {
  const currency = useOrganizationCurrency();
  const outcome = importOutcome(report);
  // Accounts without a plan carry no currency of their own: the organization's is theirs.
  const paidBefore = report.paid_before
    .filter((p) => Number(p.amount) !== 0)
    .map((p) => `${formatMoney(p.amount, p.currency || currency)}${p.currency ? '' : ' (no plan)'}`);
  return (
    <Stack gap="sm" aria-label={report.dry_run ? 'Check report' : 'Import report'}>
      <Alert
        color={OUTCOME[outcome].color}
        title={report.dry_run ? (report.imported ? 'File checked: nothing imported yet' : 'File checked: nothing can be imported') : OUTCOME[outcome].title}
        icon={report.dry_run ? <IconChecklist size={18} /> : undefined}
      >
        {report.dry_run ? checkSummary(report) : importSummary(report)}.
        {paidBefore.length ? (
          <Text size="sm" mt={4}>
            Paid before: {paidBefore.join(' · ')}
          </Text>
        ) : null}
      </Alert>
      <ImportErrors report={report} labels={{ row: 'Line', field: 'Column' }} />
    </Stack>
  );
}

function ColumnsTable() {
  return (
    <Table aria-label="Columns" fz="sm" withTableBorder verticalSpacing={4}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th w={210}>Column</Table.Th>
          <Table.Th>Meaning</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {ACCOUNT_IMPORT_COLUMNS.map((c) => (
          <Table.Tr key={c}>
            <Table.Td>
              <Group gap={6} wrap="nowrap">
                <Text span ff="monospace" size="sm">
                  {c}
                </Text>
                {isRequired(c) ? (
                  <Badge size="xs" color="red" variant="light" radius="sm" style={{ flexShrink: 0, overflow: 'visible' }}>
                    Required
                  </Badge>
                ) : null}
              </Group>
            </Table.Td>
            <Table.Td>{MEANINGS[c]}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/**
 * Import Accounts: the devices already out with customers in another system, brought over with who holds each,
 * since when, what was paid and until when its credit runs. The file is checked first (a dry run); only a file
 * checked with something to import can be imported.
 */
export function ImportAccountsModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const upload = useFileUpload();
  const importer = useImportAccounts(upload.onProgress);
  // The check's report stays on screen while the import runs (or fails), for the file it was made for.
  const [checked, setChecked] = useState<{ file: File; report: AccountsImportReport } | null>(null);
  const actions = uploadActions(upload, importer, onClose);
  const { file, progress } = upload;
  const check = checked && checked.file === file ? checked.report : null;
  const done = importer.data && !importer.data.dry_run ? importer.data : null;
  // Whether the upload running (or last failed) is a check rather than the import.
  const checking = importer.variables?.dryRun !== false;

  const choose = (next: File | null) => {
    setChecked(null);
    actions.choose(next);
  };
  const reset = () => {
    setChecked(null);
    actions.reset();
  };
  const close = () => {
    setChecked(null);
    actions.close();
  };
  const startCheck = () =>
    actions.start({ onSuccess: (report, { file: sent }) => setChecked({ file: sent, report }) }, { dryRun: true });
  const startImport = () =>
    actions.start(
      {
        onSuccess: (report) => {
          const outcome = importOutcome(report);
          toast[outcome](importSummary(report), outcome === 'success' ? undefined : { title: OUTCOME[outcome].title });
        },
      },
      { dryRun: false },
    );
  const downloadExample = () => saveBlob(new Blob([`${ACCOUNT_EXAMPLE_CSV}\n`], { type: 'text/csv' }), ACCOUNT_EXAMPLE_NAME);
  const importable = check?.imported ?? 0;
  const failed = checking ? ACCOUNT_CHECK_FAILED : ACCOUNT_IMPORT_FAILED;

  return (
    <Modal opened={opened} onClose={close} title="Import Accounts" size="xl" closeOnClickOutside={!importer.isPending}>
      <Stack gap="md">
        {done ? (
          <>
            <AccountsReport report={done} />
            <ReportActions another="Import Another File" onAnother={reset} onDone={close} />
          </>
        ) : (
          <>
            <Text size="sm" c="dimmed">
              Bring over the devices already out with customers in another system: who holds each, since when, what was
              paid and until when its credit runs. Import the customers and the devices (with their token counts) first.
              Nothing is texted or issued: each device&apos;s next code follows on from its imported token count.
            </Text>
            <ColumnsTable />
            <Group justify="space-between" gap="sm">
              <Text size="xs" c="dimmed">
                The first line names the columns; optional ones may be left out or empty.
              </Text>
              <Button variant="subtle" size="xs" leftSection={<IconDownload size={14} />} onClick={downloadExample}>
                Download Example
              </Button>
            </Group>
            <CsvFileInput value={file} onChange={choose} disabled={importer.isPending} />
            <UploadProgressBar
              progress={progress}
              pending={importer.isPending}
              afterUpload={checking ? 'Uploaded; checking rows…' : 'Uploaded; importing accounts…'}
            />
            {importer.isError && !actions.aborted ? <ErrorAlert title={failed} message={errorMessage(importer.error, failed)} /> : null}
            {check ? <AccountsReport report={check} /> : null}
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                Cancel
              </Button>
              <Button
                variant="default"
                leftSection={<IconChecklist size={16} />}
                onClick={startCheck}
                disabled={!file || (importer.isPending && !checking)}
                loading={importer.isPending && checking}
              >
                Check File
              </Button>
              <Button
                leftSection={<IconUpload size={16} />}
                onClick={startImport}
                disabled={importable === 0 || (importer.isPending && checking)}
                loading={importer.isPending && !checking}
                title={check ? undefined : 'Check the file first'}
              >
                {importable ? `Import ${count(importable, 'Account', 'Accounts')}` : 'Import Accounts'}
              </Button>
            </Group>
          </>
        )}
      </Stack>
    </Modal>
  );
}
