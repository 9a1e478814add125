import { Alert, Anchor, Button, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconAlertCircle, IconArrowLeft } from '@tabler/icons-react';
import type { TwoFactorChallenge } from '@kidogo/contracts';
import { useRef, useState, type FormEvent } from 'react';
import { CHALLENGE_EXPIRED_MESSAGE, ChallengeExpiredError, useSession } from '@/lib/session';

/** Six digits, typed with or without the space some apps show in the middle. */
const digitsOf = (value: string) => value.replace(/[\s-]/g, '');

/**
 * The second step of signing in, for a user with two-factor sign-in on: the
 * code the authenticator app shows now, or one of the recovery codes saved
 * when it was turned on. Success signs in as the password step would.
 */
export function TwoFactorStep({ challenge, onBack }: { challenge: TwoFactorChallenge; onBack: (reason?: string | null) => void }) {
  const { verifyTwoFactor } = useSession();
  const [recovery, setRecovery] = useState(false);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  // The server forgets the challenge after expires_in seconds; past that only the password helps.
  const [deadline] = useState(() => Date.now() + challenge.expires_in * 1000);

  const typed = recovery ? code.trim() : digitsOf(code);

  const switchMode = () => {
    setRecovery((r) => !r);
    setCode('');
    setError(null);
    input.current?.focus();
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!typed || submitting) return;
    if (Date.now() > deadline) return onBack(CHALLENGE_EXPIRED_MESSAGE);
    if (!recovery && !/^\d{6}$/.test(typed)) {
      setError('Enter the 6 digits your authenticator app shows.');
      return;
    }
    setSubmitting(true);
    setError(null);
    try {
      // Signed in: the login route re-renders as a redirect.
      await verifyTwoFactor(challenge.challenge_token, typed);
    } catch (e) {
      if (e instanceof ChallengeExpiredError) return onBack(e.message);
      setError(e instanceof Error ? e.message : String(e));
      setSubmitting(false);
      input.current?.select();
    }
  };

  const label = recovery ? 'Recovery code' : 'Authentication code';
  return (
    <form onSubmit={onSubmit} noValidate aria-labelledby="two-factor-title">
      <Stack gap="md">
        <div>
          <Title order={3} id="two-factor-title">
            Two-factor sign-in
          </Title>
          <Text size="sm" c="dimmed" mt={4}>
            {recovery
              ? 'Enter one of the recovery codes you saved when you turned two-factor sign-in on. Each works once.'
              : 'Enter the 6-digit code from your authenticator app.'}
          </Text>
        </div>
        {error ? (
          <Alert color="red" variant="light" title="Error" icon={<IconAlertCircle size={18} />} role="alert">
            {error}
          </Alert>
        ) : null}
        <TextInput
          ref={input}
          label={label}
          placeholder={recovery ? 'xxxxx-xxxxx' : '123 456'}
          inputMode={recovery ? 'text' : 'numeric'}
          autoComplete={recovery ? 'off' : 'one-time-code'}
          autoCapitalize="none"
          spellCheck={false}
          autoFocus
          size="md"
          maxLength={recovery ? 40 : 9}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', letterSpacing: '0.08em' } }}
          value={code}
          onChange={(e) => {
            setCode(e.currentTarget.value);
            setError(null);
          }}
        />
        <Button type="submit" size="md" fullWidth mt="xs" disabled={!typed || submitting}>
          {submitting ? 'Verifying...' : 'Verify'}
        </Button>
        <Group justify="space-between" gap="xs">
          <Button variant="subtle" size="compact-sm" leftSection={<IconArrowLeft size={14} />} onClick={() => onBack()} disabled={submitting}>
            Back
          </Button>
          <Anchor component="button" type="button" size="sm" onClick={switchMode} disabled={submitting}>
            {recovery ? 'Use the authenticator app' : 'Use a recovery code'}
          </Anchor>
        </Group>
      </Stack>
    </form>
  );
}
