import { Anchor, Box, Center, Group, List, Paper, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import { Link, Navigate, useLocation } from 'react-router-dom';
import { ThemeToggle } from '@/components/layout/theme-toggle';
import { FullPageLoader } from '@/components/ui/full-page-loader';
import { Logo } from '@/components/ui/logo';
import { paths } from '@/config/paths';
import { useSession } from '@/lib/session';
import { LoginForm } from '../components/login-form';

/** Where to go after sign-in: the page the visitor was sent away from, else the dashboard. */
export function redirectTarget(state: unknown): string {
  const from = (state as { from?: unknown } | null)?.from;
  let target: string | null = null;
  if (typeof from === 'string') target = from;
  else if (from && typeof from === 'object' && typeof (from as { pathname?: unknown }).pathname === 'string') {
    const { pathname, search = '', hash = '' } = from as { pathname: string; search?: string; hash?: string };
    target = `${pathname}${search}${hash}`;
  }
  // Only in-app paths, and never back to the sign-in or landing page.
  if (!target || !target.startsWith('/') || target.startsWith('//')) return paths.app.dashboard.getHref();
  if (target === paths.home.path || target.startsWith(paths.login.path)) return paths.app.dashboard.getHref();
  return target;
}

const POINTS = [
  'Mobile-money payments matched to customers as they arrive',
  'Unlock tokens for every device, on time',
  'Your organization’s data, on your own servers',
];

export default function LoginRoute() {
  const { isAuthenticated, isLoading } = useSession();
  const location = useLocation();

  if (isLoading) return <FullPageLoader label="Checking your session" />;
  if (isAuthenticated) return <Navigate to={redirectTarget(location.state)} replace />;

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
            <Title order={2}>Sign in to Kidogo</Title>
            <Text c="dimmed" size="sm" mt={4}>
              Use the username and password your organization gave you.
            </Text>
          </div>
          <Paper p="xl" radius="lg" withBorder shadow="sm">
            <LoginForm />
          </Paper>
        </Stack>
      </Center>
    </SimpleGrid>
  );
}
