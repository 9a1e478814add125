import { Alert, Box, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconClockX, IconLogout } from '@tabler/icons-react';
import { TWO_FACTOR_SETUP_DAYS } from '@kidogo/contracts';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { ThemeToggle } from '@/components/layout/theme-toggle';
import { formatDate } from '@/components/ui/date-text';
import { ErrorAlert } from '@/components/ui/error-alert';
import { Logo } from '@/components/ui/logo';
import { errorMessage } from '@/lib/api-client';
import { useSession } from '@/lib/session';
import { SetUpSteps } from '../components/set-up-two-factor-modal';

export const GATE_TITLE = 'Set up two-factor sign-in';
export const SETUP_CLOSED = 'The time to set it up has passed';
const FINISH_FAILED = 'Two-factor sign-in is on, but Kidogo could not open';

/**
 * What a user sees, instead of every page, while their organization requires
 * two-factor sign-in and they have not set it up: the server refuses them
 * everything else, so this screen makes no other call (no shell, no
 * notifications). The set-up steps of Settings; when they are done, the user
 * is read again and the page they were going to opens.
 */
export default function TwoFactorGate() {
  const { user, logout, reloadUser } = useSession();
  // Remounts the steps from the password: when the server still asks after Done.
  const [attempt, setAttempt] = useState(0);
  const finish = useMutation({ mutationFn: reloadUser });

  // The rule may have changed since this session's user was read (a stored session, a 403 from a page): ask once.
  useEffect(() => {
    reloadUser().catch(() => undefined);
  }, [reloadUser]);

  const organization = user?.organization_details?.name?.trim() || 'Your organization';
  // The time the server gives to set it up with the password alone; past it, only a manager's reset opens it again.
  // (Not known yet, as for a session read before the rule came in: the steps, and the server's answer if it refuses.)
  const until = user?.two_factor_setup_until ?? null;
  const [openedAt] = useState(() => Date.now());
  const lapsed = until !== null && Date.parse(until) <= openedAt;
  const done = () =>
    finish.mutate(undefined, {
      onSuccess: (me) => {
        if (me.two_factor_setup_required) setAttempt((n) => n + 1);
      },
    });

  return (
    <Box component="main" mih="100dvh" bg="var(--mantine-color-body)" pb="xl">
      <Group justify="space-between" px="lg" py="md">
        <Logo size={32} />
        <ThemeToggle />
      </Group>
      <Stack w="100%" maw={660} mx="auto" px="md" gap="lg" mt={{ base: 'sm', sm: 'xl' }}>
        <div>
          <Title order={2}>{GATE_TITLE}</Title>
          <Text c="dimmed" size="sm" mt={4}>
            {organization} requires a code from an authenticator app when you sign in.{' '}
            {until && !lapsed ? <>Set it up by {formatDate(until, true)} to continue.</> : lapsed ? null : 'Set it up to continue.'}
          </Text>
        </div>
        <Paper p={{ base: 'md', sm: 'xl' }} radius="lg" withBorder shadow="sm">
          {lapsed ? (
            <Alert color="yellow" icon={<IconClockX size={18} />} title={SETUP_CLOSED}>
              Two-factor sign-in can be set up with a password alone only for {TWO_FACTOR_SETUP_DAYS} days, so that a stolen password is not
              enough. Ask an owner or admin of {organization} to reset your two-factor sign-in (Settings → Team → Reset Two-Factor), then sign
              in again to set it up.
            </Alert>
          ) : (
            <Stack gap="md">
              <SetUpSteps key={attempt} account={user?.username} onDone={done} finishing={finish.isPending} />
              {finish.isError ? (
                <ErrorAlert title={FINISH_FAILED} message={errorMessage(finish.error)} onRetry={done} retrying={finish.isPending} />
              ) : null}
            </Stack>
          )}
        </Paper>
        <Group justify="space-between" gap="sm">
          <Text size="sm" c="dimmed">
            Signed in as {user?.username ?? 'you'}
          </Text>
          <Button variant="default" leftSection={<IconLogout size={16} />} onClick={() => void logout()}>
            Sign Out
          </Button>
        </Group>
      </Stack>
    </Box>
  );
}
