import { Badge, Button, Card, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconRefresh, IconShieldLock, IconShieldOff } from '@tabler/icons-react';
import { useState } from 'react';
import { DateText } from '@/components/ui/date-text';
import { ErrorAlert } from '@/components/ui/error-alert';
import { errorMessage } from '@/lib/api-client';
import { managesOrganization, useSession } from '@/lib/session';
import { useSecuritySettings } from '../api/security-settings';
import { useTwoFactorStatus } from '../api/two-factor';
import { NewRecoveryCodesModal, TurnOffTwoFactorModal } from './manage-two-factor-modals';
import { SetUpTwoFactorModal } from './set-up-two-factor-modal';

/** At or under this many recovery codes left, the card warns: a new set is due. */
export const FEW_RECOVERY_CODES = 3;

/**
 * Every user's own two-factor sign-in (TOTP): a code from an authenticator
 * app after the password. Set up, turned off and given new recovery codes
 * here, each after the password; an owner or admin can only reset it for
 * someone who lost their phone (Team).
 */
export function TwoFactorCard() {
  const { user } = useSession();
  const status = useTwoFactorStatus();
  const [settingUp, setUp] = useDisclosure(false);
  const [renewing, renew] = useDisclosure(false);
  const [turningOff, turnOff] = useDisclosure(false);
  const on = status.data?.enabled === true;
  const left = status.data?.recovery_codes_left ?? 0;
  // Whether it may be turned off: owners and admins can read the organization's rule; anyone learns it from Turn Off's refusal.
  const rule = useSecuritySettings({ enabled: on && managesOrganization(user) });
  const [refused, setRefused] = useState(false);
  const requiredByOrganization = on && (rule.data?.require_two_factor === true || refused);

  return (
    <Card padding="lg" component="section" aria-label="Two-Factor Sign-In">
      <Group justify="space-between" align="flex-start" gap="sm" mb={4} wrap="nowrap">
        <Group gap="sm">
          <IconShieldLock size={20} />
          <Title order={4}>Two-Factor Sign-In</Title>
        </Group>
        {status.data ? (
          <Badge color={on ? 'green' : 'gray'} variant="light" radius="sm" miw="max-content">
            {on ? 'On' : 'Off'}
          </Badge>
        ) : null}
      </Group>
      <Text size="sm" c="dimmed" mb="md">
        {on
          ? 'Signing in asks for a code from your authenticator app after your password.'
          : 'Ask for a code from an authenticator app on your phone after your password, so a stolen or guessed password alone cannot get into your account.'}
      </Text>
      {status.isError ? (
        <ErrorAlert message={errorMessage(status.error, 'Failed to load your two-factor sign-in')} onRetry={() => void status.refetch()} retrying={status.isFetching} />
      ) : status.isPending ? (
        <Skeleton h={36} />
      ) : on ? (
        <Stack gap="sm">
          <Group gap="xs" wrap="wrap">
            <Text size="sm">
              On since <DateText value={status.data.enabled_at} />
            </Text>
            <Text size="sm" c="dimmed">
              ·
            </Text>
            <Text size="sm" c={left <= FEW_RECOVERY_CODES ? 'yellow.8' : undefined} fw={left <= FEW_RECOVERY_CODES ? 600 : undefined} data-testid="recovery-codes-left">
              {left === 1 ? '1 recovery code left' : `${left} recovery codes left`}
              {left === 0 ? ': make new ones' : left <= FEW_RECOVERY_CODES ? ': make new ones before you run out' : ''}
            </Text>
          </Group>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" leftSection={<IconRefresh size={16} />} onClick={renew.open}>
              New Recovery Codes
            </Button>
            <Button variant="light" color="red" leftSection={<IconShieldOff size={16} />} onClick={turnOff.open} disabled={requiredByOrganization}>
              Turn Off
            </Button>
          </Group>
          {requiredByOrganization ? (
            <Text size="xs" c="dimmed" ta="right" mt={-4} data-testid="two-factor-required-note">
              Required by your organization
            </Text>
          ) : null}
        </Stack>
      ) : (
        <Group justify="flex-end">
          <Button leftSection={<IconShieldLock size={16} />} onClick={setUp.open}>
            Set Up
          </Button>
        </Group>
      )}
      <SetUpTwoFactorModal opened={settingUp} onClose={setUp.close} account={user?.username} />
      <NewRecoveryCodesModal opened={renewing} onClose={renew.close} account={user?.username} />
      <TurnOffTwoFactorModal opened={turningOff} onClose={turnOff.close} onRequiredByOrganization={() => setRefused(true)} />
    </Card>
  );
}
