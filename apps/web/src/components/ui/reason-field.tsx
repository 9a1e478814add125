import { Textarea } from '@mantine/core';
import { useState, type ChangeEvent } from 'react';

/** The API's bounds on a reason staff give for what they do (a rejected or reversed payment). */
export const MIN_REASON = 3;
export const MAX_REASON = 200;

/**
 * The reason a form asks for, and its check before sending: `take()` gives
 * the trimmed reason, or null after showing `missing` under the field.
 */
export function useReason(missing: string) {
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  return {
    field: {
      value,
      error,
      onChange: (e: ChangeEvent<HTMLTextAreaElement>) => {
        setValue(e.currentTarget.value);
        if (e.currentTarget.value.trim().length >= MIN_REASON) setError(null);
      },
    },
    take(): string | null {
      const text = value.trim();
      setError(text.length < MIN_REASON ? missing : null);
      return text.length < MIN_REASON ? null : text;
    },
  };
}

/** The Reason box of such a form, kept with the change and in the audit log. */
export function ReasonField({
  placeholder,
  disabled,
  ...field
}: ReturnType<typeof useReason>['field'] & { placeholder: string; disabled: boolean }) {
  return (
    <Textarea
      label="Reason"
      placeholder={placeholder}
      withAsterisk
      autosize
      minRows={2}
      maxLength={MAX_REASON}
      disabled={disabled}
      data-autofocus
      {...field}
    />
  );
}
