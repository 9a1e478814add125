import { Alert, Button, Card, Group, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconCircleCheck, IconLock } from '@tabler/icons-react';
import { ZChangePasswordSchema } from '@kidogo/contracts';
import { useState } from 'react';
import { ErrorAlert } from '@/components/ui/error-alert';
import { apiFieldErrors, errorMessage } from '@/lib/api-client';
import { labelledFieldErrors, schemaErrors } from '@/lib/validation';
import { useChangePassword } from '../api/change-password';

export const CHANGE_FAILED = 'Failed to change the password';

const LABELS = { current_password: 'Current password', new_password: 'New password' };
type Field = keyof typeof LABELS | 'confirm';
const EMPTY = { current_password: '', new_password: '', confirm: '' };

/**
 * Every user's own password: the current one, a new one under the API's rules
 * (ZChangePasswordSchema), typed twice. The server answers a fresh session, so
 * this browser stays signed in; every other session is signed out.
 */
export function ChangePasswordCard() {
  const [values, setValues] = useState(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [changed, setChanged] = useState(false);
  // A refusal the form cannot place next to a field (the network, a blocked organization).
  const [failure, setFailure] = useState<string | null>(null);
  // One switch for the three boxes: the user compares what they typed.
  const [visible, { toggle }] = useDisclosure(false);
  const change = useChangePassword();

  const set = (field: Field, value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => ({ ...e, [field]: undefined }));
    setChanged(false);
    setFailure(null);
  };

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (change.isPending) return;
    const body = { current_password: values.current_password, new_password: values.new_password };
    const found: Partial<Record<Field, string>> = schemaErrors(ZChangePasswordSchema, body, LABELS);
    if (!found.new_password && values.confirm !== values.new_password) found.confirm = 'Passwords do not match';
    setErrors(found);
    if (Object.values(found).some(Boolean)) return;
    change.mutate(body, {
      onSuccess: () => {
        setValues(EMPTY);
        setChanged(true);
      },
      onError: (error) => {
        const fields = labelledFieldErrors(apiFieldErrors(error), LABELS);
        setErrors(fields);
        setFailure(Object.keys(fields).length ? null : errorMessage(error, CHANGE_FAILED));
      },
    });
  };

  const input = (field: Field, label: string, autoComplete: string, description?: string) => (
    <PasswordInput
      label={label}
      withAsterisk
      description={description}
      value={values[field]}
      onChange={(e) => set(field, e.currentTarget.value)}
      error={errors[field]}
      // Mantine's PasswordInput leaves this off its inner input (TextInput sets it).
      aria-invalid={errors[field] ? true : undefined}
      autoComplete={autoComplete}
      visible={visible}
      onVisibilityChange={toggle}
      // Mantine marks the toggle aria-pressed; the label says which box it belongs to.
      visibilityToggleButtonProps={{ 'aria-label': `Show ${label.toLowerCase()}` }}
    />
  );

  return (
    <Card padding="lg" component="section" aria-label="Change Password">
      <Group gap="sm" mb={4}>
        <IconLock size={20} />
        <Title order={4}>Change Password</Title>
      </Group>
      <Text size="sm" c="dimmed" mb="md">
        Your own sign-in password. Changing it signs you out on every other device.
      </Text>
      <form onSubmit={submit} noValidate aria-label="Change password">
        <Stack gap="sm">
          {changed ? (
            <Alert color="green" variant="light" icon={<IconCircleCheck size={18} />} title="Password changed" role="status">
              Use the new password the next time you sign in. Other devices have been signed out.
            </Alert>
          ) : null}
          {failure ? <ErrorAlert title={CHANGE_FAILED} message={failure} /> : null}
          {input('current_password', 'Current password', 'current-password')}
          {input('new_password', 'New password', 'new-password', 'At least 8 characters, different from the current one')}
          {input('confirm', 'Confirm new password', 'new-password')}
          <Group justify="flex-end">
            <Button type="submit" disabled={change.isPending}>
              {change.isPending ? 'Saving...' : 'Change Password'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
