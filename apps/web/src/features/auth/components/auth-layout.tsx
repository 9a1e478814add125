import { Anchor, Box, Center, Group, List, Paper, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { ThemeToggle } from '@/components/layout/theme-toggle';
import { Logo } from '@/components/ui/logo';
import { paths } from '@/config/paths';

const POINTS = [
  'Mobile-money payments matched to customers as they arrive',
  'Unlock tokens for every device, on time',
  'Your organization’s data, on your own servers',
];

/** The signed-out pages (sign in, forgot password, new password): the brand panel beside a card with the page's form. */
export function AuthLayout({ title, subtitle, children }: { title: string; subtitle: ReactNode; children: ReactNode }) {
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing={0} mih="100dvh">
      <Box
        visibleFrom="md"
        p={48}
        style={{
          background: 'linear-gradient(150deg, var(--mantine-color-kidogo-9) 0%, var(--mantine-color-kidogo-7) 55%, #5c940d 100%)',
          color: 'white',
        }}
      >
        <Stack justify="space-between" h="100%">
          <Anchor component={Link} to={paths.home.getHref()} c="white" underline="never">
            <Logo size={36} />
          </Anchor>
          <Stack gap="lg" maw={460}>
            <Title order={1} fz={36} lh={1.15} c="white">
              The back office for pay-as-you-go energy and devices.
            </Title>
            <List
              spacing="sm"
              icon={
                <ThemeIcon color="white" c="kidogo.8" size={22} radius="xl">
                  <IconCheck size={14} stroke={3} />
                </ThemeIcon>
              }
            >
              {POINTS.map((p) => (
                <List.Item key={p}>
                  <Text c="white" opacity={0.92}>
                    {p}
                  </Text>
                </List.Item>
              ))}
            </List>
          </Stack>
          <Text size="sm" c="white" opacity={0.7}>
            Kidogo · open-source PAYG back office
          </Text>
        </Stack>
      </Box>

      <Center p="lg" bg="var(--mantine-color-body)" pos="relative">
        <Group pos="absolute" top={16} right={16}>
          <ThemeToggle />
        </Group>
        <Stack w="100%" maw={400} gap="lg">
          <Anchor component={Link} to={paths.home.getHref()} c="inherit" underline="never" hiddenFrom="md">
            <Logo size={32} />
          </Anchor>
          <div>
            <Title order={2}>{title}</Title>
            <Text c="dimmed" size="sm" mt={4}>
              {subtitle}
            </Text>
          </div>
          <Paper p="xl" radius="lg" withBorder shadow="sm">
            {children}
          </Paper>
        </Stack>
      </Center>
    </SimpleGrid>
  );
}
