import { Alert, Anchor, Button, PasswordInput, Stack } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconCircleCheck } from '@tabler/icons-react';
import { ZPasswordResetConfirmSchema } from '@kidogo/contracts';
import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { ErrorAlert } from '@/components/ui/error-alert';
import { paths } from '@/config/paths';
import { apiFieldErrors, errorMessage } from '@/lib/api-client';
import { labelledFieldErrors, schemaErrors } from '@/lib/validation';
import { useConfirmPasswordReset } from '../api/password-reset';
import { AuthLayout } from '../components/auth-layout';

export const INCOMPLETE_LINK = 'This link is not complete. Open the link in the email again, or ask for a new one.';
export const SET_FAILED = 'Failed to set the password';

const LABELS = { new_password: 'New password' };
type Field = keyof typeof LABELS | 'confirm';

const askAgain = (
  <Anchor component={Link} to={paths.forgotPassword.getHref()} size="sm" ta="center">
    Ask for a new link
  </Anchor>
);

/**
 * The emailed link's page: the new password, typed twice, under the API's rules. The link works once; a refused
 * one (expired, used, the password changed since) offers a new one.
 */
export default function ResetPasswordRoute() {
  const [params] = useSearchParams();
  const token = params.get('token')?.trim() ?? '';
  const [values, setValues] = useState({ new_password: '', confirm: '' });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  // The link refused, or a failure not of a field.
  const [failure, setFailure] = useState<{ title: string; message: string; link: boolean } | null>(null);
  const [visible, { toggle }] = useDisclosure(false);
  const confirm = useConfirmPasswordReset();

  const set = (field: Field, value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => ({ ...e, [field]: undefined }));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (confirm.isPending) return;
    const body = { token, new_password: values.new_password };
    const found: Partial<Record<Field, string>> = schemaErrors(ZPasswordResetConfirmSchema, body, LABELS);
    if (!found.new_password && values.confirm !== values.new_password) found.confirm = 'Passwords do not match';
    setErrors(found);
    setFailure(null);
    if (Object.values(found).some(Boolean)) return;
    confirm.mutate(body, {
      onError: (e) => {
        const fields = apiFieldErrors(e);
        setErrors(labelledFieldErrors(fields, LABELS));
        if (fields.token) setFailure({ title: 'Link not valid', message: fields.token, link: true });
        else if (!fields.new_password) setFailure({ title: SET_FAILED, message: errorMessage(e, SET_FAILED), link: false });
      },
    });
  };

  const input = (field: Field, label: string, description?: string) => (
    <PasswordInput
      label={label}
      withAsterisk
      description={description}
      size="md"
      value={values[field]}
      onChange={(e) => set(field, e.currentTarget.value)}
      error={errors[field]}
      aria-invalid={errors[field] ? true : undefined}
      autoComplete="new-password"
      visible={visible}
      onVisibilityChange={toggle}
      visibilityToggleButtonProps={{ 'aria-label': `Show ${label.toLowerCase()}` }}
    />
  );

  let content;
  if (confirm.isSuccess) {
    content = (
      <Stack gap="md">
        <Alert color="green" variant="light" icon={<IconCircleCheck size={18} />} title="Password changed" role="status">
          {confirm.data.message}
        </Alert>
        <Button component={Link} to={paths.login.getHref()} size="md" fullWidth>
          Sign In
        </Button>
      </Stack>
    );
  } else if (!token) {
    content = (
      <Stack gap="md">
        <ErrorAlert title="Link not valid" message={INCOMPLETE_LINK} />
        {askAgain}
      </Stack>
    );
  } else {
    content = (
      <form onSubmit={submit} noValidate aria-label="Choose a new password">
        <Stack gap="md">
          {failure ? <ErrorAlert title={failure.title} message={failure.message} /> : null}
          {input('new_password', 'New password', 'At least 8 characters')}
          {input('confirm', 'Confirm new password')}
          <Button type="submit" size="md" fullWidth disabled={confirm.isPending}>
            {confirm.isPending ? 'Saving...' : 'Set Password'}
          </Button>
          {failure?.link ? askAgain : null}
        </Stack>
      </form>
    );
  }

  return (
    <AuthLayout
      title="Choose a new password"
      subtitle="It signs you in from now on. Wherever you are signed in with the old one, you are signed out."
    >
      {content}
    </AuthLayout>
  );
}
