import { Alert, Anchor, Button, FileInput, Group, Modal, ScrollArea, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { IconAlertCircle, IconAlertTriangle, IconCircleCheck, IconFileTypeCsv, IconUpload } from '@tabler/icons-react';
import type { UseMutationResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { CsvImportReport } from '@kidogo/contracts';
import { ErrorAlert } from '@/components/ui/error-alert';
import { UploadProgressBar } from '@/components/ui/upload-progress';
import { uploadActions, type UploadRequest, type useFileUpload } from '@/hooks/use-file-upload';
import { errorMessage, saveBlob } from '@/lib/api-client';
import { toast } from '@/lib/notify';

function Count({ label, value, color }: { label: string; value: number; color?: string }) {
  return (
    <Stack gap={0} align="center">
      <Text fw={700} size="xl" c={color}>
        {value.toLocaleString()}
      </Text>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
    </Stack>
  );
}

/**
 * The API numbers rows from the first data row (its documented contract: the
 * header is not counted); a spreadsheet numbers lines from the header. The
 * user looks for the line in the spreadsheet, so that is the number shown.
 */
export const spreadsheetLine = (row: number) => row + 1;

export type ImportOutcome = 'success' | 'warning' | 'error';

/** Everything imported is a success; some rows skipped a warning; nothing imported an error. */
export function importOutcome(report: Pick<CsvImportReport, 'imported' | 'skipped'>): ImportOutcome {
  if (report.imported === 0) return 'error';
  return report.skipped > 0 ? 'warning' : 'success';
}

export const OUTCOME: Record<ImportOutcome, { color: string; title: string; icon: typeof IconCircleCheck }> = {
  success: { color: 'green', title: 'Import finished', icon: IconCircleCheck },
  warning: { color: 'yellow', title: 'Imported with rows skipped', icon: IconAlertTriangle },
  error: { color: 'red', title: 'Nothing imported', icon: IconAlertCircle },
};

/** "12 customers imported, 3 skipped (2 already registered)". */
export function importSummary(report: CsvImportReport, noun: string): string {
  const duplicates = report.duplicates ? ` (${report.duplicates.toLocaleString()} already registered)` : '';
  return `${report.imported.toLocaleString()} ${noun} imported, ${report.skipped.toLocaleString()} skipped${duplicates}`;
}

/**
 * Each refused row of an import: its spreadsheet line, the column at fault and
 * the problem, and how many more were not listed. Nothing when none was refused.
 * `labels` names the first two columns ("Line" and "Field" unless told).
 */
export function ImportErrors({
  report,
  labels = { row: 'Line', field: 'Field' },
}: {
  report: Pick<CsvImportReport, 'errors' | 'more_errors'>;
  labels?: { row: string; field: string };
}) {
  return (
    <>
      {report.errors.length ? (
        <ScrollArea.Autosize mah={240} type="auto">
          <Table striped aria-label="Import errors" fz="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={60}>{labels.row}</Table.Th>
                <Table.Th w={140}>{labels.field}</Table.Th>
                <Table.Th>Problem</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {report.errors.map((e, i) => (
                <Table.Tr key={`${e.row}-${e.field}-${i}`}>
                  <Table.Td>{spreadsheetLine(e.row)}</Table.Td>
                  <Table.Td ff="monospace">{e.field || '—'}</Table.Td>
                  <Table.Td>{e.message}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollArea.Autosize>
      ) : null}
      {report.errors.length ? (
        <Text size="xs" c="dimmed">
          {labels.row} numbers are the spreadsheet's: the header is {labels.row.toLowerCase()} 1.
        </Text>
      ) : null}
      {report.more_errors ? (
        <Text size="sm" c="dimmed">
          and {report.more_errors.toLocaleString()} more errors not listed.
        </Text>
      ) : null}
    </>
  );
}

export function ImportReport({ report }: { report: CsvImportReport }) {
  const outcome = OUTCOME[importOutcome(report)];
  return (
    <Stack gap="sm" aria-label="Import report">
      <Alert color={outcome.color} icon={<outcome.icon size={18} />} title={outcome.title}>
        {report.imported.toLocaleString()} imported, {report.skipped.toLocaleString()} skipped
        {report.duplicates ? ` (${report.duplicates.toLocaleString()} already registered)` : ''}.
      </Alert>
      <SimpleGrid cols={3}>
        <Count label="Imported" value={report.imported} color="green" />
        <Count label="Skipped" value={report.skipped} color={report.skipped ? 'yellow' : undefined} />
        <Count label="Errors" value={report.errors.length + (report.more_errors ?? 0)} color={report.errors.length ? 'red' : undefined} />
      </SimpleGrid>
      <ImportErrors report={report} />
    </Stack>
  );
}


/** The file picker of an upload dialog: one .csv file. */
export function CsvFileInput({
  label = 'CSV file',
  value,
  onChange,
  disabled,
}: {
  label?: string;
  value: File | null;
  onChange: (file: File | null) => void;
  disabled: boolean;
}) {
  return (
    <FileInput
      label={label}
      placeholder="Choose a .csv file"
      accept=".csv,text/csv"
      leftSection={<IconFileTypeCsv size={18} />}
      value={value}
      onChange={onChange}
      clearable
      disabled={disabled}
    />
  );
}

/** The buttons under an upload's report: another file, or Done. */
export function ReportActions({ another, onAnother, onDone }: { another: string; onAnother: () => void; onDone: () => void }) {
  return (
    <Group justify="flex-end">
      <Button variant="default" onClick={onAnother}>
        {another}
      </Button>
      <Button onClick={onDone}>Done</Button>
    </Group>
  );
}
/**
 * Uploads a CSV file with a progress bar, then shows what was imported: the
 * counts, and each refused row by its spreadsheet line, field and problem.
 * The feature gives its upload state and mutation (useFileUpload, and its
 * import mutation fed the upload's progress), what the file holds, and the
 * columns of the template a user can download.
 */
export function CsvImportModal({
  opened,
  onClose,
  title,
  noun,
  failed,
  columns,
  templateName,
  description,
  upload,
  importer,
}: {
  opened: boolean;
  onClose: () => void;
  title: string;
  /** What a row is, in the plural: "customers", "devices". */
  noun: string;
  failed: string;
  columns: readonly string[];
  templateName: string;
  description: ReactNode;
  upload: ReturnType<typeof useFileUpload>;
  importer: UseMutationResult<CsvImportReport, Error, UploadRequest>;
}) {
  const { file, progress } = upload;
  const { choose, reset, close, start, aborted } = uploadActions(upload, importer, onClose);
  const startImport = () =>
    start({
      onSuccess: (report) => {
        const outcome = importOutcome(report);
        toast[outcome](importSummary(report, noun), outcome === 'success' ? undefined : { title: OUTCOME[outcome].title });
      },
    });
  const downloadTemplate = () => saveBlob(new Blob([`${columns.join(',')}\n`], { type: 'text/csv' }), templateName);

  return (
    <Modal opened={opened} onClose={close} title={title} size="lg" closeOnClickOutside={!importer.isPending}>
      <Stack gap="md">
        {importer.data ? (
          <>
            <ImportReport report={importer.data} />
            <ReportActions another="Import another file" onAnother={reset} onDone={close} />
          </>
        ) : (
          <>
            <Text size="sm" c="dimmed">
              {description}{' '}
              <Anchor component="button" type="button" size="sm" onClick={downloadTemplate}>
                Download a template
              </Anchor>
            </Text>
            <CsvFileInput value={file} onChange={choose} disabled={importer.isPending} />
            <UploadProgressBar progress={progress} pending={importer.isPending} afterUpload="Uploaded; importing rows…" />
            {importer.isError && !aborted ? <ErrorAlert title={failed} message={errorMessage(importer.error, failed)} /> : null}
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                Cancel
              </Button>
              <Button leftSection={<IconUpload size={16} />} onClick={startImport} disabled={!file} loading={importer.isPending}>
                Upload
              </Button>
            </Group>
          </>
        )}
      </Stack>
    </Modal>
  );
}
