import { Card, Group, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import type { ReactNode } from 'react';

/** One numbered step of the onboarding form, with what was chosen in it. */
export function StepCard({
  step,
  title,
  description,
  chosen,
  children,
}: {
  step: number;
  title: string;
  description: string;
  chosen: ReactNode | null;
  children: ReactNode;
}) {
  return (
    <Card padding="lg" radius="md" role="region" aria-label={title} h="100%">
      <Group gap="sm" wrap="nowrap" mb="md" align="flex-start">
        <ThemeIcon size={34} radius="xl" variant={chosen ? 'filled' : 'light'} aria-hidden>
          {chosen ? <IconCheck size={18} /> : <Text fw={700}>{step}</Text>}
        </ThemeIcon>
        <div style={{ minWidth: 0, flex: 1 }}>
          <Title order={4}>{title}</Title>
          <Text size="sm" c="dimmed">
            {description}
          </Text>
        </div>
      </Group>
      <Stack gap="sm">{children}</Stack>
    </Card>
  );
}
