import { Badge, Card, Group, Skeleton, Stack, Switch, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconLockAccess } from '@tabler/icons-react';
import { ConfirmModal } from '@/components/ui/confirm-modal';
import { ErrorAlert } from '@/components/ui/error-alert';
import { errorMessage } from '@/lib/api-client';
import { toast } from '@/lib/notify';
import { useSecuritySettings, useUpdateSecuritySettings } from '../api/security-settings';
import { TWO_FACTOR_SETUP_DAYS } from '@kidogo/contracts';

export const REQUIRE_FAILED = 'Failed to change the sign-in rule';

const users = (n: number) => (n === 1 ? '1 user' : `${n.toLocaleString()} users`);

/** "3 users do not have it yet", or "Everyone has it". */
export const withoutText = (n: number) => (n === 0 ? 'Everyone has it' : `${users(n)} ${n === 1 ? 'does' : 'do'} not have it yet`);

/**
 * The organization's sign-in rule (owners and admins): whether every user
 * must use two-factor sign-in. While it is, a user without it can only set
 * it up; the server asks them at their next call.
 */
export function SecurityCard() {
  const settings = useSecuritySettings();
  const update = useUpdateSecuritySettings();
  const [confirming, confirm] = useDisclosure(false);
  const required = settings.data?.require_two_factor === true;
  const without = settings.data?.users_without_two_factor ?? 0;

  const apply = (require_two_factor: boolean) =>
    update.mutate(
      { require_two_factor },
      {
        onSuccess: (reply) =>
          toast.success(reply.require_two_factor ? 'Everyone must now sign in with two-factor sign-in' : 'Two-factor sign-in is no longer required'),
      },
    );

  const toggle = (on: boolean) => {
    if (update.isPending) return;
    // Turning it on locks out whoever does not have it yet, until they set it up: ask first.
    if (on && without > 0) confirm.open();
    else apply(on);
  };

  return (
    <Card padding="lg" component="section" aria-label="Security">
      <Group justify="space-between" align="flex-start" gap="sm" mb={4} wrap="nowrap">
        <Group gap="sm">
          <IconLockAccess size={20} />
          <Title order={4}>Security</Title>
        </Group>
        {settings.data ? (
          <Badge color={required ? 'green' : 'gray'} variant="light" radius="sm" miw="max-content">
            {required ? 'Two-factor required' : 'Two-factor optional'}
          </Badge>
        ) : null}
      </Group>
      <Text size="sm" c="dimmed" mb="md">
        How everyone in your organization signs in.
      </Text>
      {settings.isError ? (
        <ErrorAlert message={errorMessage(settings.error, 'Failed to load the sign-in rule')} onRetry={() => void settings.refetch()} retrying={settings.isFetching} />
      ) : settings.isPending ? (
        <Skeleton h={48} />
      ) : (
        <Stack gap="md">
          <Switch
            label="Require two-factor sign-in for everyone"
            // The label wraps the description too: the switch's name is the label alone, the count its description.
            aria-label="Require two-factor sign-in for everyone"
            description={<span data-testid="users-without-two-factor">{withoutText(without)}</span>}
            checked={required}
            disabled={update.isPending}
            onChange={(e) => toggle(e.currentTarget.checked)}
          />
          <Text size="sm" c="dimmed">
            While it is required, a user without two-factor sign-in can do nothing but set it up, and is asked to at their next step in
            Kidogo. Turning it on needs your own on first. API tokens are not affected.
          </Text>
          {update.isError ? <ErrorAlert title={REQUIRE_FAILED} message={errorMessage(update.error, REQUIRE_FAILED)} /> : null}
        </Stack>
      )}
      <ConfirmModal
        opened={confirming}
        onClose={confirm.close}
        onConfirm={() => {
          confirm.close();
          apply(true);
        }}
        title="Require two-factor sign-in?"
        message={`${users(without)} will have to set it up before they can do anything else. They have ${TWO_FACTOR_SETUP_DAYS} days to do it with their password; after that, an owner or admin lets them (Team → Allow Two-Factor Set-Up).`}
        confirmLabel="Require It"
        color="kidogo"
      />
    </Card>
  );
}
