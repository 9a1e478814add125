import { Badge, Card, Group, Progress, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconDeviceMobileMessage, IconKey, IconUserCheck } from '@tabler/icons-react';

const STEPS = [
  {
    icon: IconDeviceMobileMessage,
    color: 'green',
    title: 'Mobile money received',
    body: 'KES 150.00 from 0712 *** 480 · account SHS-20431',
    time: '09:41',
  },
  {
    icon: IconUserCheck,
    color: 'kidogo',
    title: 'Matched to customer',
    body: 'Amina Njeri · Solar Home Kit 40W',
    time: '09:41',
  },
  {
    icon: IconKey,
    color: 'lime',
    title: 'Unlock token sent by SMS',
    body: '482 913 557 204 · 7 days of power',
    time: '09:42',
  },
];

/** A still of what the product does with one payment, drawn with the app's own components. */
export function HeroPreview() {
  return (
    <Card radius="lg" shadow="xl" padding="lg" aria-label="Example: one payment flowing through Kidogo">
      <Group justify="space-between" mb="md">
        <Text fw={700}>Live activity</Text>
        <Badge color="green" variant="dot">
          Connected
        </Badge>
      </Group>
      <Stack gap="sm">
        {STEPS.map((s) => (
          <Group
            key={s.title}
            wrap="nowrap"
            align="flex-start"
            p="sm"
            style={{ borderRadius: 'var(--mantine-radius-md)', background: 'var(--kidogo-section-bg)' }}
          >
            <ThemeIcon color={s.color} variant="light" size={38} radius="md">
              <s.icon size={20} />
            </ThemeIcon>
            <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
              <Group justify="space-between" wrap="nowrap">
                <Text size="sm" fw={600}>
                  {s.title}
                </Text>
                <Text size="xs" c="dimmed">
                  {s.time}
                </Text>
              </Group>
              <Text size="xs" c="dimmed" truncate>
                {s.body}
              </Text>
            </Stack>
          </Group>
        ))}
      </Stack>
      <Stack gap={6} mt="lg">
        <Group justify="space-between">
          <Text size="xs" c="dimmed">
            Amina’s kit: paid off
          </Text>
          <Text size="xs" fw={700}>
            68%
          </Text>
        </Group>
        <Progress value={68} color="kidogo" radius="xl" size="md" aria-label="Repayment progress" />
      </Stack>
    </Card>
  );
}
