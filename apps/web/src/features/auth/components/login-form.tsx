import { Alert, Anchor, Button, Group, PasswordInput, Stack, TextInput } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import type { TwoFactorChallenge } from '@kidogo/contracts';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { paths } from '@/config/paths';
import { useSession } from '@/lib/session';
import { usePasswordResetAvailability } from '../api/password-reset';
import { TwoFactorStep } from './two-factor-step';

/**
 * Username and password; submit stays disabled until both are filled (username
 * trimmed) and while signing in. A user with two-factor sign-in on is asked
 * for a code next, in the same card; an expired challenge comes back here.
 */
export function LoginForm() {
  const { login } = useSession();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [challenge, setChallenge] = useState<TwoFactorChallenge | null>(null);
  // Offered only where the installation can email the link.
  const reset = usePasswordResetAvailability();

  const blank = username.trim() === '' || password === '';

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (blank || submitting) return;
    setSubmitting(true);
    setError(null);
    try {
      // Signed in: the login route re-renders as a redirect; nothing more to do here.
      const next = await login(username.trim(), password);
      if (next) {
        setChallenge(next);
        setSubmitting(false);
      }
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
      setSubmitting(false);
    }
  };

  /** Back to the password, which a new challenge needs; `reason` says why when the server sent the user back. */
  const backToPassword = (reason: string | null = null) => {
    setChallenge(null);
    setPassword('');
    setError(reason);
  };

  if (challenge) return <TwoFactorStep challenge={challenge} onBack={backToPassword} />;

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="md">
        {error ? (
          <Alert color="red" variant="light" title="Error" icon={<IconAlertCircle size={18} />} role="alert">
            {error}
          </Alert>
        ) : null}
        <TextInput
          label="Username"
          placeholder="Your username"
          autoComplete="username"
          // Back from the code step the username is kept: the password is what is asked again.
          autoFocus={username === ''}
          size="md"
          value={username}
          onChange={(e) => {
            setUsername(e.currentTarget.value);
            setError(null);
          }}
        />
        <PasswordInput
          label="Password"
          placeholder="Your password"
          autoComplete="current-password"
          autoFocus={username !== ''}
          size="md"
          value={password}
          onChange={(e) => {
            setPassword(e.currentTarget.value);
            setError(null);
          }}
        />
        {reset.data?.available ? (
          <Group justify="flex-end" mt={-8}>
            <Anchor component={Link} to={paths.forgotPassword.getHref()} state={{ login: username.trim() }} size="sm">
              Forgot password?
            </Anchor>
          </Group>
        ) : null}
        <Button type="submit" size="md" fullWidth mt="xs" disabled={blank || submitting}>
          {submitting ? 'Signing in...' : 'Sign In'}
        </Button>
      </Stack>
    </form>
  );
}
