import { ActionIcon, Button, Card, CopyButton, Group, Modal, Skeleton, Stack, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy, IconEye, IconEyeOff, IconKey, IconRotate } from '@tabler/icons-react';
import { useState } from 'react';
import { ErrorAlert } from '@/components/ui/error-alert';
import { errorMessage } from '@/lib/api-client';
import { toast } from '@/lib/notify';
import { useApiKey } from '../api/get-api-key';
import { useRotateApiKey } from '../api/rotate-api-key';

/** Enough of the key to recognise it, not to use it: 'kdg_••••••••••••1a2B'. */
export function maskKey(key: string): string {
  if (key.length <= 12) return '•'.repeat(key.length);
  const prefix = key.startsWith('kdg_') ? 'kdg_' : key.slice(0, 4);
  return `${prefix}${'•'.repeat(16)}${key.slice(-4)}`;
}

export const ROTATE_FAILED = 'Failed to rotate the API key';

/** The organization's receiver key: masked, Reveal, Copy, Rotate (with a confirmation). */
export function ApiKeyCard() {
  const key = useApiKey(true);
  const rotate = useRotateApiKey();
  const [revealed, setRevealed] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const value = key.data?.api_key ?? '';

  const doRotate = () =>
    rotate.mutate(undefined, {
      onSuccess: () => {
        setConfirming(false);
        setRevealed(true);
        toast.success('API key rotated. Update every forwarder and integration with the new key.');
      },
    });

  return (
    <Card padding="lg" component="section" aria-label="API Key">
      <Group gap="sm" mb={4}>
        <IconKey size={20} />
        <Title order={4}>API Key</Title>
      </Group>
      <Text size="sm" c="dimmed" mb="md">
        Payment forwarders send this key in the X-API-Key header. Keep it secret: anyone with it can post payments to your
        organization.
      </Text>
      {key.isError ? (
        <ErrorAlert message={errorMessage(key.error, 'Failed to load the API key')} onRetry={() => void key.refetch()} />
      ) : key.isPending ? (
        <Skeleton h={36} />
      ) : (
        <Stack gap="sm">
          <Group gap="xs" wrap="nowrap" align="flex-end">
            <TextInput
              flex={1}
              label="Key"
              readOnly
              value={revealed ? value : maskKey(value)}
              styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
              aria-label="API key"
              data-testid="api-key"
            />
            <Tooltip label={revealed ? 'Hide' : 'Reveal'} withArrow>
              <ActionIcon size="input-sm" variant="default" aria-label={revealed ? 'Hide key' : 'Reveal key'} onClick={() => setRevealed((v) => !v)}>
                {revealed ? <IconEyeOff size={18} /> : <IconEye size={18} />}
              </ActionIcon>
            </Tooltip>
            <CopyButton value={value} timeout={1500}>
              {({ copied, copy }) => (
                <Tooltip label={copied ? 'Copied' : 'Copy'} withArrow>
                  <ActionIcon size="input-sm" variant="default" color={copied ? 'teal' : undefined} aria-label="Copy key" onClick={copy}>
                    {copied ? <IconCheck size={18} /> : <IconCopy size={18} />}
                  </ActionIcon>
                </Tooltip>
              )}
            </CopyButton>
          </Group>
          <Group>
            <Button variant="light" color="red" leftSection={<IconRotate size={16} />} onClick={() => setConfirming(true)}>
              Rotate Key
            </Button>
          </Group>
        </Stack>
      )}
      <Modal opened={confirming} onClose={() => !rotate.isPending && setConfirming(false)} title="Rotate the API key?" size="md">
        <Stack gap="md">
          <Text size="sm">
            A new key replaces the current one and <b>the current key stops working immediately</b>. Payments forwarded with
            the old key will be refused until every SMS forwarder and M-Pesa integration is updated with the new key.
          </Text>
          {rotate.isError ? <ErrorAlert title={ROTATE_FAILED} message={errorMessage(rotate.error, ROTATE_FAILED)} /> : null}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={() => setConfirming(false)} disabled={rotate.isPending}>
              Cancel
            </Button>
            <Button color="red" onClick={doRotate} loading={rotate.isPending}>
              Rotate Key
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Card>
  );
}
