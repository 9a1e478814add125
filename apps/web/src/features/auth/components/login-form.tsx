import { Alert, Button, PasswordInput, Stack, TextInput } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { useSession } from '@/lib/session';

/** Username and password; submit stays disabled until both are filled (username trimmed) and while signing in. */
export function LoginForm() {
  const { login } = useSession();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  const blank = username.trim() === '' || password === '';

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (blank || submitting) return;
    setSubmitting(true);
    setError(null);
    try {
      // Success re-renders the login route as a redirect; nothing more to do here.
      await login(username.trim(), password);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
      setSubmitting(false);
    }
  };

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
          autoFocus
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
          size="md"
          value={password}
          onChange={(e) => {
            setPassword(e.currentTarget.value);
            setError(null);
          }}
        />
        <Button type="submit" size="md" fullWidth mt="xs" disabled={blank || submitting}>
          {submitting ? 'Signing in...' : 'Sign In'}
        </Button>
      </Stack>
    </form>
  );
}
