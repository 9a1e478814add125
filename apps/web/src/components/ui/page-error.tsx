import { Button, Center, Group, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import type { ReactNode } from 'react';

/** A load failure that replaces the whole screen (detail screens with nothing to show without their data). */
export function PageError({
  title = 'Something went wrong',
  message,
  onRetry,
  retrying = false,
  actions,
}: {
  title?: string;
  message: string;
  onRetry?: () => void;
  retrying?: boolean;
  actions?: ReactNode;
}) {
  return (
    <Center py={64}>
      <Paper withBorder radius="lg" p="xl" maw={520} w="100%" role="alert">
        <Stack align="center" gap="sm" ta="center">
          <ThemeIcon color="red" variant="light" size={56} radius="xl" aria-hidden>
            <IconAlertTriangle size={30} />
          </ThemeIcon>
          <Title order={3}>{title}</Title>
          <Text c="dimmed">{message}</Text>
          <Group gap="sm" mt="sm" justify="center">
            {actions}
            {onRetry ? (
              <Button variant="light" color="red" onClick={onRetry} loading={retrying}>
                Retry
              </Button>
            ) : null}
          </Group>
        </Stack>
      </Paper>
    </Center>
  );
}
