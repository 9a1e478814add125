import { Autocomplete, Button, Group, NumberInput, Select, SimpleGrid, Stack, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect, useState } from 'react';
import { phoneCountryOf } from '@kidogo/contracts';
import { ErrorAlert } from '@/components/ui/error-alert';
import { usePhoneCountry } from '@/features/settings/api/get-phone-country';
import { apiFieldErrors, errorMessage } from '@/lib/api-client';
import { CURRENCIES, type Currency, type PaymentTemplate, type TemplateInput } from '../api/types';

export interface TemplateFormValues {
  template_name: string;
  description: string;
  deposit_made: number | string;
  daily_price: number | string;
  activation_price: number | string;
  grace_period_days: number | string;
  currency: string;
  payment_method: string;
  frequency: string;
  free_code_price: number | string;
}

/** Spec §3/§5 defaults: prices 0, grace period 0 days, currency KES. */
export const EMPTY_TEMPLATE: TemplateFormValues = {
  template_name: '',
  description: '',
  deposit_made: 0,
  daily_price: '',
  activation_price: 0,
  grace_period_days: 0,
  currency: 'KES',
  payment_method: '',
  frequency: '',
  free_code_price: '',
};

/** A decimal from the form; anything non-numeric is 0 (spec §5). */
export function toDecimal(value: number | string | null | undefined): number {
  const n = typeof value === 'number' ? value : Number.parseFloat(String(value ?? '').trim());
  return Number.isFinite(n) ? Math.round(n * 100) / 100 : 0;
}

/** A whole number from the form; anything non-numeric is 0. */
export function toInteger(value: number | string | null | undefined): number {
  const n = typeof value === 'number' ? value : Number.parseInt(String(value ?? '').trim(), 10);
  return Number.isFinite(n) ? Math.trunc(n) : 0;
}

const blank = (v: number | string) => String(v ?? '').trim() === '';

export function toTemplateInput(values: TemplateFormValues): TemplateInput {
  return {
    template_name: values.template_name.trim(),
    description: values.description.trim() || null,
    deposit_made: toDecimal(values.deposit_made),
    daily_price: toDecimal(values.daily_price),
    activation_price: toDecimal(values.activation_price),
    grace_period_days: toInteger(values.grace_period_days),
    currency: ((CURRENCIES as readonly string[]).includes(values.currency) ? values.currency : 'KES') as Currency,
    payment_method: values.payment_method.trim() || null,
    frequency: values.frequency.trim() || null,
    free_code_price: blank(values.free_code_price) ? null : toDecimal(values.free_code_price),
  };
}

export function fromTemplate(t: PaymentTemplate): TemplateFormValues {
  return {
    template_name: t.template_name,
    description: t.description ?? '',
    deposit_made: Number(t.deposit_made),
    daily_price: Number(t.daily_price),
    activation_price: Number(t.activation_price),
    grace_period_days: t.grace_period_days,
    currency: t.currency,
    payment_method: t.payment_method ?? '',
    frequency: t.frequency ?? '',
    free_code_price: t.free_code_price === null ? '' : Number(t.free_code_price),
  };
}

/** The rules of spec §5 for Create Template (and Edit). */
export const templateValidation = {
  template_name: (v: string) => (v.trim() ? null : 'Template Name is required'),
  deposit_made: (v: number | string) => (toDecimal(v) >= 0 ? null : 'Deposit Made must be at least 0'),
  daily_price: (v: number | string) =>
    blank(v) ? 'Daily Price is required' : toDecimal(v) >= 0.01 ? null : 'Daily Price must be at least 0.01',
  activation_price: (v: number | string) => (toDecimal(v) >= 0 ? null : 'Activation Price must be at least 0'),
  grace_period_days: (v: number | string) => {
    const s = String(v ?? '').trim();
    if (s && !/^\d+$/.test(s)) return 'Grace Period must be a whole number of days, 0 or more';
    return null;
  },
  currency: (v: string) => (v ? null : 'Currency is required'),
  free_code_price: (v: number | string) =>
    blank(v) || toDecimal(v) > 0 ? null : 'Free Code Price must be more than 0, or left empty',
};

const FIELDS = Object.keys(EMPTY_TEMPLATE);

export interface TemplateFormProps {
  initialValues?: TemplateFormValues;
  submitLabel: string;
  failureTitle: string;
  onSubmit: (input: TemplateInput) => Promise<unknown>;
  onCancel: () => void;
}

export function TemplateForm({ initialValues = EMPTY_TEMPLATE, submitLabel, failureTitle, onSubmit, onCancel }: TemplateFormProps) {
  const form = useForm<TemplateFormValues>({ mode: 'controlled', initialValues, validate: templateValidation });
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // A new plan is in the money of the organization's country when plans can be (UGX in Uganda), until staff choose;
  // KES otherwise, the specification's default.
  const country = usePhoneCountry().data;
  const local = country ? phoneCountryOf(country.phone_country_code)?.currency : undefined;
  const creating = initialValues === EMPTY_TEMPLATE;
  const preset = creating && local && (CURRENCIES as readonly string[]).includes(local) ? local : null;
  useEffect(() => {
    if (preset && form.getValues().currency !== preset && !form.isTouched('currency') && !form.isDirty('currency')) {
      form.setFieldValue('currency', preset);
      form.resetDirty({ ...form.getValues(), currency: preset });
    }
  }, [preset, form]);

  const submit = form.onSubmit(async (values) => {
    if (busy) return;
    setBusy(true);
    setFailure(null);
    try {
      await onSubmit(toTemplateInput(values));
    } catch (error) {
      for (const [field, message] of Object.entries(apiFieldErrors(error))) {
        if (FIELDS.includes(field)) form.setFieldError(field, message);
      }
      setFailure(errorMessage(error, failureTitle));
    } finally {
      setBusy(false);
    }
  });

  const currency = form.values.currency || 'KES';
  const money = (field: keyof TemplateFormValues, label: string, extra: Record<string, unknown> = {}) => (
    <NumberInput
      label={label}
      min={0}
      step={0.01}
      decimalScale={2}
      allowNegative={false}
      thousandSeparator=","
      clampBehavior="none"
      rightSection={<span style={{ fontSize: 12, color: 'var(--mantine-color-dimmed)', paddingRight: 8 }}>{currency}</span>}
      rightSectionWidth={48}
      {...form.getInputProps(field)}
      key={form.key(field)}
      {...extra}
    />
  );

  return (
    <form onSubmit={submit} noValidate aria-label={submitLabel}>
      <Stack gap="md">
        {failure ? <ErrorAlert title={failureTitle} message={failure} /> : null}
        <TextInput
          label="Template Name"
          withAsterisk
          placeholder="e.g. Solar Home 30"
          data-autofocus
          {...form.getInputProps('template_name')}
          key={form.key('template_name')}
        />
        <Textarea label="Description" autosize minRows={2} maxRows={4} {...form.getInputProps('description')} key={form.key('description')} />
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm" verticalSpacing="sm">
          {money('deposit_made', 'Deposit Made', { withAsterisk: true })}
          {money('daily_price', 'Daily Price', { withAsterisk: true, min: 0.01 })}
          {money('activation_price', 'Activation Price', { withAsterisk: true })}
          <NumberInput
            label="Grace Period (days)"
            withAsterisk
            min={0}
            step={1}
            allowDecimal={false}
            allowNegative={false}
            hideControls
            clampBehavior="none"
            {...form.getInputProps('grace_period_days')}
            key={form.key('grace_period_days')}
          />
          <Select
            label="Currency"
            withAsterisk
            data={[...CURRENCIES]}
            allowDeselect={false}
            comboboxProps={{ withinPortal: true }}
            {...form.getInputProps('currency')}
            key={form.key('currency')}
          />
          {money('free_code_price', 'Free Code Price', {
            description: 'Paid-off total; empty: the device price',
            min: 0.01,
          })}
          <Autocomplete
            label="Payment Method"
            data={['M-Pesa', 'Mobile money', 'Cash', 'Bank transfer']}
            comboboxProps={{ withinPortal: true }}
            {...form.getInputProps('payment_method')}
            key={form.key('payment_method')}
          />
          <Autocomplete
            label="Frequency"
            data={['Daily', 'Weekly', 'Monthly']}
            comboboxProps={{ withinPortal: true }}
            {...form.getInputProps('frequency')}
            key={form.key('frequency')}
          />
        </SimpleGrid>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" loading={busy}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
