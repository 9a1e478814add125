import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { RECOVERY_CODE_COUNT } from '@kidogo/contracts';
import { useState } from 'react';
import { ApiError } from '@/lib/api-client';
import { toast } from '@/lib/notify';
import { useDisableTwoFactor, useNewRecoveryCodes, useTwoFactorWriting } from '../api/two-factor';
import { PasswordStep } from './password-step';
import { RecoveryCodes } from './recovery-codes';

export const NEW_CODES_FAILED = 'Failed to make new recovery codes';
export const TURN_OFF_FAILED = 'Failed to turn off two-factor sign-in';

function NewCodesSteps({ account, onClose }: { account: string | undefined; onClose: () => void }) {
  const renew = useNewRecoveryCodes();
  const [codes, setCodes] = useState<string[] | null>(null);
  if (codes) {
    return (
      <Stack gap="md">
        <RecoveryCodes codes={codes} account={account} />
        <Group justify="flex-end">
          <Button onClick={onClose}>Done</Button>
        </Group>
      </Stack>
    );
  }
  return (
    <PasswordStep
      intro={`${RECOVERY_CODE_COUNT} new recovery codes replace the ones you have, used or not: those stop working at once. Confirm it is you first.`}
      submitLabel="Make New Codes"
      pending={renew.isPending}
      error={renew.error}
      failureTitle={NEW_CODES_FAILED}
      onEdit={() => renew.reset()}
      onCancel={onClose}
      onSubmit={(password) => renew.mutate({ password }, { onSuccess: (reply) => setCodes(reply.recovery_codes) })}
    />
  );
}

/** New Recovery Codes: the password, then the new set, shown once. */
export function NewRecoveryCodesModal({ opened, onClose, account }: { opened: boolean; onClose: () => void; account: string | undefined }) {
  const busy = useTwoFactorWriting();
  return (
    <Modal opened={opened} onClose={() => !busy && onClose()} title="New Recovery Codes" size="lg" centered closeOnClickOutside={false}>
      <NewCodesSteps account={account} onClose={onClose} />
    </Modal>
  );
}

/** The 409 of Turn Off in an organization that requires two-factor sign-in (told apart from others only by its words). */
export const isRequiredByOrganization = (error: unknown) =>
  error instanceof ApiError && error.status === 409 && /organization requires two-factor sign-in/i.test(error.message);

function TurnOffStep({ onClose, onRequiredByOrganization }: { onClose: () => void; onRequiredByOrganization?: () => void }) {
  const disable = useDisableTwoFactor();
  return (
    <PasswordStep
      intro={
        <Text size="sm">
          You will sign in with your password only, and your recovery codes stop working. You can set it up again at any time,
          with a new QR code.
        </Text>
      }
      submitLabel="Turn Off"
      color="red"
      pending={disable.isPending}
      error={disable.error}
      failureTitle={TURN_OFF_FAILED}
      onEdit={() => disable.reset()}
      onCancel={onClose}
      onSubmit={(password) =>
        disable.mutate(
          { password },
          {
            onSuccess: (reply) => {
              toast.success(reply?.message ?? 'Two-factor sign-in is off');
              onClose();
            },
            onError: (error) => {
              if (isRequiredByOrganization(error)) onRequiredByOrganization?.();
            },
          },
        )
      }
    />
  );
}

/** Turn Off: the password, then a red confirm. `onRequiredByOrganization`: refused because the organization requires it. */
export function TurnOffTwoFactorModal({
  opened,
  onClose,
  onRequiredByOrganization,
}: {
  opened: boolean;
  onClose: () => void;
  onRequiredByOrganization?: () => void;
}) {
  const busy = useTwoFactorWriting();
  return (
    <Modal opened={opened} onClose={() => !busy && onClose()} title="Turn off two-factor sign-in?" centered>
      <TurnOffStep onClose={onClose} onRequiredByOrganization={onRequiredByOrganization} />
    </Modal>
  );
}
