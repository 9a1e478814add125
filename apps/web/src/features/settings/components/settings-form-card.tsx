import { Card, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ErrorAlert } from '@/components/ui/error-alert';
import { errorMessage } from '@/lib/api-client';

/**
 * A Settings card whose form edits one saved setting: its heading and what it
 * is for, then the load's error (with Retry), a skeleton while it loads, or
 * the form for the loaded value.
 */
export function SettingsFormCard<T>({
  title,
  icon,
  description,
  query,
  loadFailed,
  children,
}: {
  title: string;
  icon: ReactNode;
  description: ReactNode;
  query: UseQueryResult<T>;
  loadFailed: string;
  children: (data: T) => ReactNode;
}) {
  return (
    <Card padding="lg" component="section" aria-label={title}>
      <Group gap="sm" mb={4}>
        {icon}
        <Title order={4}>{title}</Title>
      </Group>
      <Text size="sm" c="dimmed" mb="md">
        {description}
      </Text>
      {query.isError ? (
        <ErrorAlert message={errorMessage(query.error, loadFailed)} onRetry={() => void query.refetch()} />
      ) : query.isPending ? (
        <Stack gap="sm">
          <Skeleton h={36} />
          <Skeleton h={36} />
        </Stack>
      ) : (
        children(query.data)
      )}
    </Card>
  );
}
