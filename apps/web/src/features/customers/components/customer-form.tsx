import '@mantine/dates/styles.css';
import { Button, Divider, Group, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { DateInput } from '@mantine/dates';
import { useForm } from '@mantine/form';
import dayjs from 'dayjs';
import customParseFormat from 'dayjs/plugin/customParseFormat';
import { useState, type ReactNode } from 'react';
import { ErrorAlert } from '@/components/ui/error-alert';
import { apiFieldErrors, errorMessage } from '@/lib/api-client';
import {
  CUSTOMER_STATUSES,
  CUSTOMER_TYPES,
  EDUCATION_LEVELS,
  GENDERS,
  LANGUAGES,
  MARITAL_STATUSES,
  type Customer,
  type CustomerInput,
} from '../api/types';

dayjs.extend(customParseFormat);

export interface CustomerFormValues {
  customer_name: string;
  id_number: string;
  phone_contact: string;
  email: string;
  country: string;
  gender: string;
  date_of_birth: string;
  marital_status: string;
  county: string;
  constituency: string;
  ward: string;
  sub_location: string;
  village: string;
  postal_address: string;
  occupation: string;
  employer_name: string;
  education_level: string;
  preferred_language: string;
  customer_type: string;
  agent_id: string;
  status: string;
}

type Field = keyof CustomerFormValues;

/** Spec §3 defaults: English, individual, active. */
export const EMPTY_CUSTOMER: CustomerFormValues = {
  customer_name: '',
  id_number: '',
  phone_contact: '',
  email: '',
  country: '',
  gender: '',
  date_of_birth: '',
  marital_status: '',
  county: '',
  constituency: '',
  ward: '',
  sub_location: '',
  village: '',
  postal_address: '',
  occupation: '',
  employer_name: '',
  education_level: '',
  preferred_language: 'English',
  customer_type: 'individual',
  agent_id: '',
  status: 'active',
};

const OPTIONAL_TEXT: Field[] = [
  'email',
  'country',
  'gender',
  'marital_status',
  'county',
  'constituency',
  'ward',
  'sub_location',
  'village',
  'postal_address',
  'occupation',
  'employer_name',
  'education_level',
  'agent_id',
];

/** A real calendar date as YYYY-MM-DD, else null (spec §5: an unparsable date of birth becomes null). */
export function toIsoDate(value: string): string | null {
  const s = value.trim();
  if (!s) return null;
  for (const format of ['YYYY-MM-DD', 'DD/MM/YYYY', 'D/M/YYYY']) {
    const d = dayjs(s, format, true);
    if (d.isValid()) return d.format('YYYY-MM-DD');
  }
  return null;
}

/**
 * The registration payload (spec §5): text trimmed, empty optional fields
 * null, language/type/status defaulted, date of birth YYYY-MM-DD or null, and
 * the organization from the token when the form gives none.
 */
export function toCustomerInput(values: CustomerFormValues, organizationId: string | null): CustomerInput {
  const input: CustomerInput = {
    customer_name: values.customer_name.trim(),
    id_number: values.id_number.trim(),
    phone_contact: values.phone_contact.trim(),
    preferred_language: values.preferred_language.trim() || 'English',
    customer_type: values.customer_type.trim() || 'individual',
    status: values.status.trim() || 'active',
    date_of_birth: toIsoDate(values.date_of_birth),
    organization_id: organizationId,
  };
  for (const f of OPTIONAL_TEXT) {
    (input as Record<string, string | null>)[f] = values[f].trim() || null;
  }
  return input;
}

export function fromCustomer(c: Customer): CustomerFormValues {
  const values = { ...EMPTY_CUSTOMER };
  for (const f of Object.keys(EMPTY_CUSTOMER) as Field[]) {
    const v = (c as unknown as Record<string, unknown>)[f];
    if (typeof v === 'string') values[f] = v;
  }
  return values;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;

const required = (label: string) => (v: string) => (v.trim() ? null : `${label} is required`);

/** Client-side rules of spec §5: the six required fields and a well-formed email. */
export const customerValidation = {
  customer_name: required('Customer Name'),
  id_number: required('ID Number'),
  phone_contact: required('Phone Contact'),
  preferred_language: required('Preferred Language'),
  customer_type: required('Customer Type'),
  status: required('Status'),
  email: (v: string) => (!v.trim() || EMAIL.test(v.trim()) ? null : 'Enter a valid email address'),
};

const options = (values: readonly string[], label: (v: string) => string = (v) => v) =>
  values.map((v) => ({ value: v, label: label(v) }));
const capitalize = (v: string) => v.charAt(0).toUpperCase() + v.slice(1);

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack gap="xs">
      <Divider label={<Text size="xs" fw={700} tt="uppercase" c="dimmed">{title}</Text>} labelPosition="left" />
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm" verticalSpacing="xs">
        {children}
      </SimpleGrid>
    </Stack>
  );
}

export interface CustomerFormProps {
  initialValues?: CustomerFormValues;
  submitLabel: string;
  /** Shown above the failure's reason, e.g. 'Failed to add customer'. */
  failureTitle: string;
  onSubmit: (values: CustomerFormValues) => Promise<unknown>;
  onCancel: () => void;
}

/** The full customer form (spec §3), used by Add Customer and Edit. */
export function CustomerForm({ initialValues = EMPTY_CUSTOMER, submitLabel, failureTitle, onSubmit, onCancel }: CustomerFormProps) {
  const form = useForm<CustomerFormValues>({ mode: 'controlled', initialValues, validate: customerValidation });
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [today] = useState(() => dayjs().format('YYYY-MM-DD'));

  const submit = form.onSubmit(async (values) => {
    if (busy) return;
    setBusy(true);
    setFailure(null);
    try {
      await onSubmit(values);
    } catch (error) {
      // 400s name the fields at fault: show each next to its input.
      const fields = apiFieldErrors(error);
      for (const [field, message] of Object.entries(fields)) {
        if (field in EMPTY_CUSTOMER) form.setFieldError(field, message);
      }
      setFailure(errorMessage(error, failureTitle));
    } finally {
      setBusy(false);
    }
  });

  const text = (field: Field, label: string, extra: Record<string, unknown> = {}) => (
    <TextInput label={label} {...form.getInputProps(field)} key={form.key(field)} {...extra} />
  );
  const select = (field: Field, label: string, data: { value: string; label: string }[], isRequired = false) => (
    <Select
      label={label}
      data={data}
      clearable={!isRequired}
      allowDeselect={!isRequired}
      withAsterisk={isRequired}
      comboboxProps={{ withinPortal: true }}
      {...form.getInputProps(field)}
      value={form.values[field] || null}
      onChange={(v) => form.setFieldValue(field, v ?? '')}
      key={form.key(field)}
    />
  );

  return (
    <form onSubmit={submit} noValidate aria-label={submitLabel}>
      <Stack gap="md">
        {failure ? <ErrorAlert title={failureTitle} message={failure} /> : null}
        <Section title="Identity and contact">
          {text('customer_name', 'Customer Name', { withAsterisk: true, autoComplete: 'off', 'data-autofocus': true })}
          {text('id_number', 'ID Number', { withAsterisk: true, autoComplete: 'off' })}
          {text('phone_contact', 'Phone Contact', { withAsterisk: true, type: 'tel', placeholder: '0712 345 678' })}
          {text('email', 'Email', { type: 'email', placeholder: 'name@example.com' })}
          {select('gender', 'Gender', options(GENDERS))}
          <DateInput
            label="Date of Birth"
            valueFormat="YYYY-MM-DD"
            placeholder="YYYY-MM-DD"
            clearable
            maxDate={today}
            popoverProps={{ withinPortal: true }}
            dateParser={(input) => toIsoDate(input)}
            value={form.values.date_of_birth || null}
            onChange={(v) => form.setFieldValue('date_of_birth', typeof v === 'string' ? v : '')}
          />
          {select('marital_status', 'Marital Status', options(MARITAL_STATUSES))}
          {text('country', 'Country')}
        </Section>
        <Section title="Location">
          {text('county', 'County')}
          {text('constituency', 'Constituency')}
          {text('ward', 'Ward')}
          {text('sub_location', 'Sub Location')}
          {text('village', 'Village')}
          {text('postal_address', 'Postal Address')}
        </Section>
        <Section title="Work and education">
          {text('occupation', 'Occupation')}
          {text('employer_name', 'Employer Name')}
          {select('education_level', 'Education Level', options(EDUCATION_LEVELS))}
          {text('agent_id', 'Agent ID')}
        </Section>
        <Section title="Account">
          {select('preferred_language', 'Preferred Language', options(LANGUAGES), true)}
          {select('customer_type', 'Customer Type', options(CUSTOMER_TYPES, capitalize), true)}
          {select('status', 'Status', options(CUSTOMER_STATUSES, capitalize), true)}
        </Section>
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
