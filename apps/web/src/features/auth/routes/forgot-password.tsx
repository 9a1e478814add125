import { Alert, Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { IconMailCheck } from '@tabler/icons-react';
import { ZPasswordResetRequestSchema } from '@kidogo/contracts';
import { useState, type FormEvent } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { ErrorAlert } from '@/components/ui/error-alert';
import { FullPageLoader } from '@/components/ui/full-page-loader';
import { paths } from '@/config/paths';
import { apiFieldErrors, errorMessage } from '@/lib/api-client';
import { labelledFieldErrors, schemaErrors } from '@/lib/validation';
import { usePasswordResetAvailability, useRequestPasswordReset } from '../api/password-reset';
import { AuthLayout } from '../components/auth-layout';

export const NOT_SET_UP =
  'Password reset by email is not set up on this installation. Ask an owner or admin of your organization to set a new password for you.';
export const SEND_FAILED = 'Failed to send the link';

const LABELS = { login: 'Username or email' };

const backToSignIn = (
  <Anchor component={Link} to={paths.login.getHref()} size="sm" ta="center">
    Back to Sign In
  </Anchor>
);

/**
 * Forgot password: the username or the account's email address; the server emails a link to choose a new password
 * and answers alike whether an account matched, so the page says only where to look.
 */
export default function ForgotPasswordRoute() {
  const location = useLocation();
  const given = (location.state as { login?: unknown } | null)?.login;
  const [login, setLogin] = useState(typeof given === 'string' ? given : '');
  const [error, setError] = useState<string | undefined>();
  const [failure, setFailure] = useState<string | null>(null);
  const availability = usePasswordResetAvailability();
  const send = useRequestPasswordReset();

  if (availability.isPending) return <FullPageLoader label="Loading" />;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (send.isPending) return;
    const found = schemaErrors(ZPasswordResetRequestSchema, { login }, LABELS);
    setError(found.login);
    setFailure(null);
    if (found.login) return;
    send.mutate(
      { login: login.trim() },
      {
        onError: (e) => {
          const fields = labelledFieldErrors(apiFieldErrors(e), LABELS);
          setError(fields.login);
          setFailure(fields.login ? null : errorMessage(e, SEND_FAILED));
        },
      },
    );
  };

  let content;
  if (!availability.data?.available) {
    content = (
      <Stack gap="md">
        <Alert color="yellow" variant="light" title="Not available here" role="status">
          {NOT_SET_UP}
        </Alert>
        {backToSignIn}
      </Stack>
    );
  } else if (send.isSuccess) {
    content = (
      <Stack gap="md">
        <Alert color="green" variant="light" icon={<IconMailCheck size={18} />} title="Check your email" role="status">
          {send.data.message}
        </Alert>
        <Text size="sm" c="dimmed">
          No email after a few minutes? Look in the spam folder, or ask an owner or admin of your organization: the account may
          have no email address.
        </Text>
        {backToSignIn}
      </Stack>
    );
  } else {
    content = (
      <form onSubmit={submit} noValidate aria-label="Forgot password">
        <Stack gap="md">
          {failure ? <ErrorAlert title={SEND_FAILED} message={failure} /> : null}
          <TextInput
            label="Username or email"
            placeholder="Your username or email address"
            autoComplete="username"
            autoFocus
            size="md"
            value={login}
            error={error}
            onChange={(e) => {
              setLogin(e.currentTarget.value);
              setError(undefined);
              setFailure(null);
            }}
          />
          <Button type="submit" size="md" fullWidth disabled={send.isPending}>
            {send.isPending ? 'Sending...' : 'Send Link'}
          </Button>
          {backToSignIn}
        </Stack>
      </form>
    );
  }

  return (
    <AuthLayout
      title="Forgot your password?"
      subtitle="Type your username or the email address of your account: we email you a link to choose a new password."
    >
      {content}
    </AuthLayout>
  );
}
