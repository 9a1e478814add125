import { Alert, Button, Group, Text } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';

/** The red Error box of the spec; a load failure passes onRetry to offer Retry. */
export function ErrorAlert({
  message,
  title = 'Error',
  onRetry,
  retrying = false,
}: {
  message: string;
  title?: string;
  onRetry?: () => void;
  retrying?: boolean;
}) {
  return (
    <Alert color="red" variant="light" title={title} icon={<IconAlertCircle size={18} />} role="alert">
      <Group justify="space-between" align="center" gap="sm" wrap="wrap">
        <Text size="sm">{message}</Text>
        {onRetry ? (
          <Button size="xs" color="red" variant="outline" onClick={onRetry} loading={retrying}>
            Retry
          </Button>
        ) : null}
      </Group>
    </Alert>
  );
}
