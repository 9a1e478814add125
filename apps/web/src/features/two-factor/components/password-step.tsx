import { Button, Group, PasswordInput, Stack, Text } from '@mantine/core';
import { ZTwoFactorPasswordSchema } from '@kidogo/contracts';
import { useState, type ReactNode } from 'react';
import { ErrorAlert } from '@/components/ui/error-alert';
import { apiFieldErrors, errorMessage } from '@/lib/api-client';
import { labelledFieldErrors, schemaErrors } from '@/lib/validation';

const LABELS = { password: 'Current password' };

/**
 * The current password, asked again before two-factor sign-in is set up,
 * turned off or given new recovery codes. `error` is the failed call's: a
 * wrong password is shown under the box, anything else above the buttons.
 */
export function PasswordStep({
  intro,
  submitLabel,
  color,
  pending,
  error,
  failureTitle,
  onSubmit,
  onEdit,
  onCancel,
}: {
  intro: ReactNode;
  submitLabel: string;
  color?: string;
  pending: boolean;
  error: unknown;
  failureTitle: string;
  onSubmit: (password: string) => void;
  /** Typing again clears the last call's error (reset the mutation). */
  onEdit: () => void;
  /** Without it, no Cancel: the step cannot be left (the set-up screen of an organization that requires it). */
  onCancel?: () => void;
}) {
  const [password, setPassword] = useState('');
  const [invalid, setInvalid] = useState<string | null>(null);
  const refused = error ? labelledFieldErrors(apiFieldErrors(error), LABELS).password : undefined;
  const failure = error && !refused ? errorMessage(error, failureTitle) : null;
  const fieldError = invalid ?? refused;

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (pending) return;
    const found = schemaErrors(ZTwoFactorPasswordSchema, { password }, LABELS).password;
    setInvalid(found ?? null);
    if (!found) onSubmit(password);
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        {typeof intro === 'string' ? <Text size="sm">{intro}</Text> : intro}
        <PasswordInput
          label="Current password"
          withAsterisk
          autoComplete="current-password"
          data-autofocus
          value={password}
          onChange={(e) => {
            setPassword(e.currentTarget.value);
            setInvalid(null);
            onEdit();
          }}
          error={fieldError}
          // Mantine's PasswordInput leaves this off its inner input (TextInput sets it).
          aria-invalid={fieldError ? true : undefined}
          visibilityToggleButtonProps={{ 'aria-label': 'Show current password' }}
        />
        {failure ? <ErrorAlert title={failureTitle} message={failure} /> : null}
        <Group justify="flex-end" gap="sm">
          {onCancel ? (
            <Button variant="default" onClick={onCancel} disabled={pending}>
              Cancel
            </Button>
          ) : null}
          <Button type="submit" color={color} loading={pending}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
