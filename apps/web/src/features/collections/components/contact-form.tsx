import '@mantine/dates/styles.css';
import { Button, Group, Select, Stack, Text, Textarea } from '@mantine/core';
import { DateInput } from '@mantine/dates';
import { useForm } from '@mantine/form';
import { CONTACT_OUTCOME_LABELS, CONTACT_OUTCOMES, MAX_PROMISE_DAYS, ZContactInputSchema } from '@kidogo/contracts';
import dayjs from 'dayjs';
import { useState } from 'react';
import { ErrorAlert } from '@/components/ui/error-alert';
import { apiFieldErrors } from '@/lib/api-client';
import { labelledFieldErrors, refusalBeside, schemaErrors } from '@/lib/validation';
import type { useLogContact } from '../api/log-contact';
import type { Contact, ContactInput, ContactOutcome } from '../api/types';

export const LOG_FAILED = 'Failed to log contact';
export const NOTE_MAX = 500;

/** The form's labels: client-side and server messages read "Promised Payment Date is required when …". */
export const CONTACT_LABELS = {
  outcome: 'Outcome',
  promised_on: 'Promised Payment Date',
  note: 'Note',
};
type Field = keyof typeof CONTACT_LABELS;

export interface ContactFormValues {
  outcome: ContactOutcome | null;
  /** YYYY-MM-DD, as the date input gives it. */
  promised_on: string | null;
  note: string;
}

/** The request body: the promised day only with a promise (the field is hidden otherwise), an empty note left out. */
export function toContactInput(v: ContactFormValues): ContactInput {
  const note = v.note.trim();
  return {
    outcome: v.outcome as ContactOutcome,
    ...(note ? { note } : {}),
    ...(v.outcome === 'promised_to_pay' && v.promised_on ? { promised_on: v.promised_on } : {}),
  };
}

/** The days a promise may name: from today to MAX_PROMISE_DAYS ahead, as the server accepts them. */
export const promiseWindow = (today: string) => ({
  min: today,
  max: dayjs(today).add(MAX_PROMISE_DAYS, 'day').format('YYYY-MM-DD'),
});

/**
 * The contract's rules (ZContactInputSchema) in the form's words, plus the
 * window of days the server checks against its own today. No outcome yet
 * reads "Outcome is required", not the schema's list of values.
 */
export function validateContact(v: ContactFormValues, today: string): Partial<Record<Field, string>> {
  if (!v.outcome) return { outcome: `${CONTACT_LABELS.outcome} is required` };
  const errors = schemaErrors(ZContactInputSchema, toContactInput(v), CONTACT_LABELS);
  const { min, max } = promiseWindow(today);
  if (!errors.promised_on && v.outcome === 'promised_to_pay' && v.promised_on) {
    // The server's words for the same checks.
    if (v.promised_on < min) errors.promised_on = `${CONTACT_LABELS.promised_on} must be today (${min}) or later`;
    else if (v.promised_on > max) errors.promised_on = `${CONTACT_LABELS.promised_on} must be at most ${MAX_PROMISE_DAYS} days ahead (${max})`;
  }
  return errors;
}

const OUTCOME_CHOICES = CONTACT_OUTCOMES.map((o) => ({ value: o, label: CONTACT_OUTCOME_LABELS[o] }));

/** Outcome, the promised day for a promise, a note; Save posts it for the device. */
export function ContactForm({
  itemId,
  today,
  log,
  onLogged,
  onCancel,
}: {
  itemId: number;
  today: string;
  log: ReturnType<typeof useLogContact>;
  onLogged: (contact: Contact) => void;
  onCancel: () => void;
}) {
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<ContactFormValues>({
    mode: 'controlled',
    initialValues: { outcome: null, promised_on: null, note: '' },
    validate: (v) => validateContact(v, today),
    onValuesChange: () => setFailure(null),
  });
  const { min, max } = promiseWindow(today);
  const promise = form.values.outcome === 'promised_to_pay';
  const noteLength = form.values.note.trim().length;

  const submit = form.onSubmit((values) => {
    if (log.isPending) return;
    setFailure(null);
    log.mutate(
      { itemId, input: toContactInput(values) },
      {
        onSuccess: onLogged,
        onError: (error) => {
          // A 400 names its fields: each message goes under its input. Every other refusal
          // (404 not this organization's device, 409 no customer) goes in the red box, as the API words it.
          const fields = apiFieldErrors(error);
          const shown = labelledFieldErrors(fields, CONTACT_LABELS);
          form.setErrors(shown);
          setFailure(refusalBeside(error, fields, shown, LOG_FAILED));
        },
      },
    );
  });

  return (
    <form onSubmit={submit} noValidate aria-label="Log Contact">
      <Stack gap="md">
        <Select
          label={CONTACT_LABELS.outcome}
          withAsterisk
          placeholder="What came of the call or visit?"
          data={OUTCOME_CHOICES}
          allowDeselect={false}
          comboboxProps={{ withinPortal: true }}
          data-autofocus
          {...form.getInputProps('outcome')}
          onChange={(value) => {
            form.setFieldValue('outcome', value as ContactOutcome | null);
            // The date belongs to a promise: another outcome drops it and its message.
            if (value !== 'promised_to_pay') {
              form.setFieldValue('promised_on', null);
              form.clearFieldError('promised_on');
            }
          }}
        />
        {promise ? (
          <DateInput
            label={CONTACT_LABELS.promised_on}
            withAsterisk
            description={`The day the customer said they would pay, up to ${MAX_PROMISE_DAYS} days ahead.`}
            placeholder="Pick a date"
            valueFormat="YYYY-MM-DD"
            clearable
            minDate={min}
            maxDate={max}
            popoverProps={{ withinPortal: true }}
            {...form.getInputProps('promised_on')}
          />
        ) : null}
        <Textarea
          label={CONTACT_LABELS.note}
          placeholder="Optional: what was said, when to call again"
          autosize
          minRows={2}
          maxRows={5}
          description={
            <Text span size="xs" c={noteLength > NOTE_MAX ? 'red' : 'dimmed'}>
              {noteLength} / {NOTE_MAX}
            </Text>
          }
          inputWrapperOrder={['label', 'input', 'description', 'error']}
          {...form.getInputProps('note')}
        />
        {failure ? <ErrorAlert title={LOG_FAILED} message={failure} /> : null}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel} disabled={log.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={log.isPending}>
            Save
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
