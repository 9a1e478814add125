import { Button, Flex, Group, List, Modal, Stack, Text, TextInput } from '@mantine/core';
import { ZTwoFactorEnableSchema, type RecoveryCodesReply, type TwoFactorSetupReply } from '@kidogo/contracts';
import { useState } from 'react';
import { ErrorAlert } from '@/components/ui/error-alert';
import { SecretField } from '@/components/ui/secret-field';
import { apiFieldErrors, errorMessage } from '@/lib/api-client';
import { labelledFieldErrors, schemaErrors } from '@/lib/validation';
import { useEnableTwoFactor, useSetUpTwoFactor, useTwoFactorWriting } from '../api/two-factor';
import { PasswordStep } from './password-step';
import { QrCode } from './qr-code';
import { RecoveryCodes } from './recovery-codes';

export const SET_UP_FAILED = 'Failed to set up two-factor sign-in';
export const TURN_ON_FAILED = 'Failed to turn on two-factor sign-in';

const CODE_LABELS = { code: 'Authentication code' };

/** A base32 secret in groups of four, as people read and type it: "JBSW Y3DP EHPK 3PXP". */
export const groupSecret = (secret: string) => secret.replace(/\s+/g, '').replace(/(.{4})(?=.)/g, '$1 ');

const StepLabel = ({ n, of = 3, children }: { n: number; of?: number; children: string }) => (
  <Text size="xs" tt="uppercase" fw={700} c="dimmed">
    Step {n} of {of} · {children}
  </Text>
);

/** Step 2: the secret into the app (scanned, or typed), then the app's first code to prove it took. */
function ScanStep({
  setup,
  onEnabled,
  onCancel,
  cancelLabel,
}: {
  setup: TwoFactorSetupReply;
  onEnabled: (reply: RecoveryCodesReply) => void;
  onCancel: () => void;
  cancelLabel: string;
}) {
  const enable = useEnableTwoFactor();
  const [code, setCode] = useState('');
  const [invalid, setInvalid] = useState<string | null>(null);
  const refused = enable.isError ? labelledFieldErrors(apiFieldErrors(enable.error), CODE_LABELS).code : undefined;
  const failure = enable.isError && !refused ? errorMessage(enable.error, TURN_ON_FAILED) : null;
  const codeError = invalid ?? refused;

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (enable.isPending) return;
    const found = schemaErrors(ZTwoFactorEnableSchema, { code }, CODE_LABELS).code;
    setInvalid(found ?? null);
    if (found) return;
    enable.mutate({ code: code.replace(/[\s-]/g, '') }, { onSuccess: onEnabled });
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <StepLabel n={2}>Your authenticator app</StepLabel>
        <Flex gap="md" direction={{ base: 'column', xs: 'row' }} align={{ base: 'center', xs: 'flex-start' }}>
          <QrCode value={setup.otpauth_url} />
          <List type="ordered" size="sm" spacing={6} style={{ alignSelf: 'stretch' }}>
            <List.Item>Open an authenticator app on your phone: Google or Microsoft Authenticator, Authy, 1Password.</List.Item>
            <List.Item>Add an account and scan this QR code, or type in the setup key below.</List.Item>
            <List.Item>Enter the 6-digit code the app then shows.</List.Item>
          </List>
        </Flex>
        <div>
          <SecretField label="Setup key" value={setup.secret} shown={groupSecret(setup.secret)} copyLabel="Copy setup key" />
          <Text size="xs" c="dimmed" mt={4}>
            Typed in: account {setup.account}, issuer {setup.issuer}, time-based, 6 digits.
          </Text>
        </div>
        <TextInput
          label="Authentication code"
          withAsterisk
          placeholder="123 456"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={9}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', letterSpacing: '0.08em' } }}
          value={code}
          onChange={(e) => {
            setCode(e.currentTarget.value);
            setInvalid(null);
            enable.reset();
          }}
          error={codeError}
          // The step replaces the password step inside an open modal: its focus-on-open has passed.
          autoFocus
        />
        {failure ? <ErrorAlert title={TURN_ON_FAILED} message={failure} /> : null}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel} disabled={enable.isPending}>
            {cancelLabel}
          </Button>
          <Button type="submit" loading={enable.isPending}>
            Turn On
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * The steps of setting it up: password, then the app, then the recovery codes.
 * One opening of the modal, or the set-up screen of an organization that
 * requires it: they start over when remounted. Without `onCancel` (the
 * set-up screen, which cannot be left) the password step has no Cancel and
 * the app step goes Back to it.
 */
export function SetUpSteps({
  account,
  onDone,
  onCancel,
  finishing = false,
}: {
  account: string | undefined;
  /** Done, under the recovery codes. */
  onDone: () => void;
  onCancel?: () => void;
  /** Done is under way (the set-up screen reads the user again). */
  finishing?: boolean;
}) {
  const setUp = useSetUpTwoFactor();
  const [setup, setSetup] = useState<TwoFactorSetupReply | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);

  if (codes) {
    return (
      <Stack gap="md">
        <StepLabel n={3}>Recovery codes</StepLabel>
        <Text size="sm">Two-factor sign-in is on. From your next sign-in, Kidogo asks for a code from the app after your password.</Text>
        <RecoveryCodes codes={codes} account={account} />
        <Group justify="flex-end">
          <Button onClick={onDone} loading={finishing}>
            Done
          </Button>
        </Group>
      </Stack>
    );
  }
  if (setup) {
    const back = () => {
      setUp.reset();
      setSetup(null);
    };
    return (
      <ScanStep
        setup={setup}
        onEnabled={(reply) => setCodes(reply.recovery_codes)}
        onCancel={onCancel ?? back}
        cancelLabel={onCancel ? 'Cancel' : 'Back'}
      />
    );
  }
  return (
    <Stack gap="md">
      <StepLabel n={1}>Your password</StepLabel>
      <PasswordStep
        intro="Two-factor sign-in asks for a code from an app on your phone each time you sign in, so a password alone no longer gets into your account. Confirm it is you first."
        submitLabel="Continue"
        pending={setUp.isPending}
        error={setUp.error}
        failureTitle={SET_UP_FAILED}
        onEdit={() => setUp.reset()}
        onCancel={onCancel}
        onSubmit={(password) => setUp.mutate({ password }, { onSuccess: setSetup })}
      />
    </Stack>
  );
}

/** Set Up: password, then the app (QR code or setup key, and its first code), then the recovery codes, shown once. */
export function SetUpTwoFactorModal({ opened, onClose, account }: { opened: boolean; onClose: () => void; account: string | undefined }) {
  const busy = useTwoFactorWriting();
  return (
    // Not closed by a click beside it: the recovery codes of the last step are shown only there.
    <Modal opened={opened} onClose={() => !busy && onClose()} title="Set Up Two-Factor Sign-In" size="lg" centered closeOnClickOutside={false}>
      <SetUpSteps account={account} onDone={onClose} onCancel={onClose} />
    </Modal>
  );
}
