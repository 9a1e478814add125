import type { Session } from '@kidogo/contracts';
import { Badge, Button, Card, Group, Paper, Skeleton, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconDeviceDesktop, IconDeviceMobile, IconDevices, IconLogout, IconLogout2 } from '@tabler/icons-react';
import { ConfirmModal } from '@/components/ui/confirm-modal';
import { DateText } from '@/components/ui/date-text';
import { ErrorAlert } from '@/components/ui/error-alert';
import { errorMessage } from '@/lib/api-client';
import { toast } from '@/lib/notify';
import { useSession } from '@/lib/session';
import { useSessions } from '../api/get-sessions';
import { useSignOutEverywhere } from '../api/sign-out-everywhere';
import { useSignOutOthers } from '../api/sign-out-others';
import { useSignOutSession } from '../api/sign-out-session';
import { describeUserAgent, isMobileUserAgent } from './describe-user-agent';

export const SIGN_OUT_FAILED = 'Failed to sign out of that device';
export const SIGN_OUT_OTHERS_FAILED = 'Failed to sign out everywhere else';
export const SIGN_OUT_EVERYWHERE_FAILED = 'Failed to sign out everywhere';

const Dot = () => (
  <Text span size="xs" c="dimmed" aria-hidden>
    ·
  </Text>
);

function SessionItem({ session, onSignOut, signingOut }: { session: Session; onSignOut: () => void; signingOut: boolean }) {
  const name = describeUserAgent(session.user_agent);
  const DeviceIcon = isMobileUserAgent(session.user_agent) ? IconDeviceMobile : IconDeviceDesktop;
  return (
    <Paper component="li" withBorder radius="md" p="sm" aria-label={session.current ? `${name}, this device` : name}>
      <Group justify="space-between" align="center" gap="sm">
        <Group gap="sm" wrap="nowrap" align="flex-start" miw={0} style={{ flex: '1 1 16rem' }}>
          <ThemeIcon variant="light" color={session.current ? 'kidogo' : 'gray'} size="lg" radius="md" aria-hidden>
            <DeviceIcon size={18} />
          </ThemeIcon>
          <Stack gap={2} miw={0}>
            <Group gap={6} wrap="wrap">
              <Text size="sm" fw={600}>
                {name}
              </Text>
              {session.current ? (
                <Badge size="xs" variant="light" color="kidogo" radius="sm" miw="max-content">
                  This device
                </Badge>
              ) : null}
            </Group>
            <Group gap={6} wrap="wrap">
              {/* An IPv6 address is one long word: it may break anywhere rather than widen a phone's screen. */}
              <Text span size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                {session.ip ?? 'Unknown address'}
              </Text>
              <Dot />
              <Text span size="xs" c="dimmed">
                Signed in <DateText value={session.signed_in_at} size="xs" c="dimmed" />
              </Text>
            </Group>
            {/* A line of its own, so that no separator is left hanging where a narrow card wraps. Its last_active_at is
                its latest token refresh, up to 15 minutes old: the current one is in use right now. */}
            <Text size="xs" c="dimmed">
              {session.current ? (
                'Active now'
              ) : (
                <>
                  Last active <DateText value={session.last_active_at} withTime size="xs" c="dimmed" />
                </>
              )}
            </Text>
          </Stack>
        </Group>
        {session.current ? null : (
          // At the right end on a line of its own too, where a phone wraps it under the device.
          <Button size="xs" variant="light" color="red" leftSection={<IconLogout size={14} />} onClick={onSignOut} loading={signingOut} ml="auto">
            Sign Out
          </Button>
        )}
      </Group>
    </Paper>
  );
}

/**
 * Where the user's account is signed in: every sign-in still able to renew
 * its access token. The user signs out of one device, of all but this one,
 * or of all at once; an owner or admin can do the last for someone else (Team).
 */
export function SignedInDevicesCard() {
  const { endLocalSession } = useSession();
  const sessions = useSessions();
  const signOutOne = useSignOutSession();
  const signOutOthers = useSignOutOthers();
  const everywhere = useSignOutEverywhere();
  const [confirming, confirm] = useDisclosure(false);
  const list = sessions.data?.data ?? [];
  const others = list.filter((s) => !s.current).length;

  const signOut = (session: Session) =>
    signOutOne.mutate(session.session_id, {
      onSuccess: (reply) => toast.success(reply?.message ?? 'Signed out of that device'),
      onError: (error) => toast.error(errorMessage(error, SIGN_OUT_FAILED)),
    });

  const signOutElsewhere = () =>
    signOutOthers.mutate(undefined, {
      onSuccess: (reply) => toast.success(reply?.message ?? 'Signed out everywhere else'),
      onError: (error) => toast.error(errorMessage(error, SIGN_OUT_OTHERS_FAILED)),
    });

  const closeConfirm = () => {
    if (everywhere.isPending) return;
    everywhere.reset();
    confirm.close();
  };
  const confirmEverywhere = () =>
    everywhere.mutate(undefined, {
      onSuccess: (reply) => {
        toast.success(reply?.message ?? 'Signed out everywhere');
        // The server has ended this session too: its tokens are refused, so it ends here without another call.
        endLocalSession();
      },
    });

  return (
    <Card padding="lg" component="section" aria-label="Signed-In Devices">
      <Group gap="sm" mb={4}>
        <IconDevices size={20} />
        <Title order={4}>Signed-In Devices</Title>
      </Group>
      <Text size="sm" c="dimmed" mb="md">
        Where your account is signed in. Sign out of a device you no longer use or do not recognise.
      </Text>
      {sessions.isError ? (
        <ErrorAlert message={errorMessage(sessions.error, 'Failed to load your signed-in devices')} onRetry={() => void sessions.refetch()} retrying={sessions.isFetching} />
      ) : sessions.isPending ? (
        <Stack gap="xs" role="status" aria-label="Loading">
          <Skeleton h={62} radius="md" />
          <Skeleton h={62} radius="md" />
        </Stack>
      ) : (
        <Stack gap="md">
          {list.length === 0 ? (
            <Text size="sm" c="dimmed">
              No devices are signed in.
            </Text>
          ) : (
            <Stack component="ul" gap="xs" m={0} p={0} style={{ listStyle: 'none' }} aria-label="Signed-in devices">
              {list.map((s) => (
                <SessionItem
                  key={s.session_id}
                  session={s}
                  onSignOut={() => signOut(s)}
                  signingOut={signOutOne.isPending && signOutOne.variables === s.session_id}
                />
              ))}
            </Stack>
          )}
          <Text size="xs" c="dimmed">
            A device you sign out of is out at once, from its next request. Sign Out Everywhere ends every session, this one too.
          </Text>
          {/* Side by side where both fit, else one above the other at the same width: never a ragged pair. */}
          <Group gap="sm" maw={560} ml="auto" w="100%">
            <Button
              variant="default"
              leftSection={<IconLogout2 size={16} />}
              onClick={signOutElsewhere}
              loading={signOutOthers.isPending}
              disabled={others === 0}
              style={{ flex: '1 1 15rem' }}
            >
              Sign Out Everywhere Else
            </Button>
            <Button variant="light" color="red" leftSection={<IconLogout size={16} />} onClick={confirm.open} style={{ flex: '1 1 15rem' }}>
              Sign Out Everywhere
            </Button>
          </Group>
        </Stack>
      )}
      <ConfirmModal
        opened={confirming}
        onClose={closeConfirm}
        onConfirm={confirmEverywhere}
        title="Sign out everywhere?"
        message="Every device signed in to your account is signed out at once, this one too: you sign in again with your password. Your API tokens go on working: revoke them in API Tokens."
        confirmLabel="Sign Out Everywhere"
        loading={everywhere.isPending}
        error={everywhere.isError ? errorMessage(everywhere.error, SIGN_OUT_EVERYWHERE_FAILED) : null}
        errorTitle={SIGN_OUT_EVERYWHERE_FAILED}
      />
    </Card>
  );
}
