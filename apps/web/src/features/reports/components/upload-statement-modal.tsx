import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconUpload } from '@tabler/icons-react';
import { CsvFileInput, ReportActions } from '@/components/ui/csv-import-modal';
import { ErrorAlert } from '@/components/ui/error-alert';
import { UploadProgressBar } from '@/components/ui/upload-progress';
import { uploadActions, useFileUpload } from '@/hooks/use-file-upload';
import { errorMessage } from '@/lib/api-client';
import { useUploadStatement } from '../api/upload-statement';
import { StatementSummary } from './statement-summary';

export const UPLOAD_FAILED = 'Failed to upload statement';

/**
 * Reconciles an M-Pesa statement export: uploaded with a progress bar, then
 * what happened to its rows. Uploading the same statement again records
 * nothing twice, so staff can re-run it or upload overlapping periods.
 */
export function UploadStatementModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const upload = useFileUpload();
  const { file, progress } = upload;
  const uploader = useUploadStatement(upload.onProgress);
  const { choose, reset, close, start, aborted } = uploadActions(upload, uploader, onClose);
  // The summary is a long read: on a phone it gets the whole screen.
  const phone = useMediaQuery('(max-width: 36em)');

  return (
    <Modal opened={opened} onClose={close} title="Upload M-Pesa Statement" size="xl" fullScreen={phone} closeOnClickOutside={!uploader.isPending}>
      <Stack gap="md">
        {uploader.data ? (
          <>
            <StatementSummary report={uploader.data} />
            <ReportActions another="Upload another statement" onAnother={reset} onDone={close} />
          </>
        ) : (
          <>
            <Text size="sm" c="dimmed">
              The statement as the M-Pesa Org Portal exports it (CSV): <b>Receipt No.</b>, <b>Completion Time</b>, <b>Details</b>,{' '}
              <b>Transaction Status</b>, <b>Paid In</b>, <b>Withdrawn</b>, <b>Other Party Info</b> and <b>A/C No.</b> Every payment received
              is recorded once and applied to the device its account names; receipts already recorded are skipped, so a statement can be
              uploaded again or overlap an earlier one.
            </Text>
            <CsvFileInput label="Statement file (CSV)" value={file} onChange={choose} disabled={uploader.isPending} />
            <UploadProgressBar progress={progress} pending={uploader.isPending} afterUpload="Uploaded; reconciling payments…" />
            {uploader.isError && !aborted ? <ErrorAlert title={UPLOAD_FAILED} message={errorMessage(uploader.error, UPLOAD_FAILED)} /> : null}
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                Cancel
              </Button>
              <Button leftSection={<IconUpload size={16} />} onClick={() => start()} disabled={!file} loading={uploader.isPending}>
                Upload
              </Button>
            </Group>
          </>
        )}
      </Stack>
    </Modal>
  );
}
