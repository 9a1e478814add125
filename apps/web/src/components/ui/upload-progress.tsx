import { Progress, Stack, Text } from '@mantine/core';
import type { UploadProgress } from '@/lib/api-client';

/**
 * The progress of a file upload while it runs: the bar and its words, then,
 * once every byte is sent, what the server is doing with it (`afterUpload`:
 * "Uploaded; importing rows…"). Nothing before the upload starts or after it ends.
 */
export function UploadProgressBar({ progress, pending, afterUpload }: { progress: UploadProgress | null; pending: boolean; afterUpload: string }) {
  if (!progress || !pending) return null;
  const percent = progress.percent ?? null;
  const uploaded = percent === 100;
  return (
    <Stack gap={4}>
      <Progress
        value={percent ?? 100}
        animated={percent === null || uploaded}
        striped={percent === null || uploaded}
        size="lg"
        aria-label="Upload progress"
      />
      <Text size="xs" c="dimmed" role="status">
        {uploaded ? afterUpload : percent === null ? 'Uploading…' : `Uploading… ${percent}%`}
      </Text>
    </Stack>
  );
}
