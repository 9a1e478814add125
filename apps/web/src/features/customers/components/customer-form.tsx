import '@mantine/dates/styles.css';
import { Autocomplete, Button, Divider, Group, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { DateInput } from '@mantine/dates';
import { useForm } from '@mantine/form';
import dayjs from 'dayjs';
import customParseFormat from 'dayjs/plugin/customParseFormat';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { ErrorAlert } from '@/components/ui/error-alert';
import { useCollectionAgents } from '@/features/collections/api/get-collection-agents';
import { usePhoneCountry } from '@/features/settings/api/get-phone-country';
import { NO_AGENT } from '@kidogo/contracts';
import { ApiError, apiFieldErrors, errorMessage } from '@/lib/api-client';
import { useBusinessToday } from '@/lib/business-day';
import { labelledFieldErrors } from '@/lib/validation';
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

/** The form's labels: the inputs show them, and so does every server message about a field. */
export const CUSTOMER_LABELS: Record<Field, string> = {
  customer_name: 'Customer Name',
  id_number: 'ID Number',
  phone_contact: 'Phone Contact',
  email: 'Email',
  country: 'Country',
  gender: 'Gender',
  date_of_birth: 'Date of Birth',
  marital_status: 'Marital Status',
  county: 'County',
  constituency: 'Constituency',
  ward: 'Ward',
  sub_location: 'Sub Location',
  village: 'Village',
  postal_address: 'Postal Address',
  occupation: 'Occupation',
  employer_name: 'Employer Name',
  education_level: 'Education Level',
  preferred_language: 'Preferred Language',
  customer_type: 'Customer Type',
  agent_id: 'Agent ID',
  status: 'Status',
};

/** Form order, for choosing which problem to show first. */
const FIELD_ORDER = Object.keys(CUSTOMER_LABELS) as Field[];

export interface ServerRefusal {
  /** For the error box: the server's words, with field names replaced by the form's labels. */
  message: string;
  /** Per field, for the inputs. */
  fields: Partial<Record<Field, string>>;
}

/**
 * What a failed save means for the form. A 400 names its fields
 * (errors: [{field, message}]); a 409 on these calls always means the ID
 * number is taken (register and update only conflict on it), so it is put on
 * ID Number, where the user can fix it.
 */
export function serverRefusal(error: unknown, fallback: string): ServerRefusal {
  const raw = apiFieldErrors(error);
  const fields = labelledFieldErrors(raw, CUSTOMER_LABELS);
  if (Object.keys(raw).length) {
    const message = Object.entries(raw)
      .map(([field, text]) => fields[field as Field] ?? `${field}: ${text}`)
      .join('; ');
    return { message, fields };
  }
  const message = errorMessage(error, fallback);
  if (error instanceof ApiError && error.status === 409) return { message, fields: { id_number: message } };
  return { message, fields: {} };
}

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

const required = (field: Field) => (v: string) => (v.trim() ? null : `${CUSTOMER_LABELS[field]} is required`);

/** Client-side rules of spec §5: the six required fields and a well-formed email. */
export const customerValidation = {
  customer_name: required('customer_name'),
  id_number: required('id_number'),
  phone_contact: required('phone_contact'),
  preferred_language: required('preferred_language'),
  customer_type: required('customer_type'),
  status: required('status'),
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
  const today = useBusinessToday();
  const formRef = useRef<HTMLFormElement>(null);
  const failureBox = useRef<HTMLDivElement>(null);
  // Bumped on every refusal, so a second identical refusal still brings the problem into view.
  const [problem, setProblem] = useState<{ field: Field | null; seq: number } | null>(null);

  // The form is taller than the modal: a problem must be brought to where the user is, or nothing seems to happen.
  useEffect(() => {
    if (!problem) return;
    // The inputs carry their field in data-path (getInputProps); looked up in this form only.
    const input = problem.field ? formRef.current?.querySelector<HTMLElement>(`[data-path="${problem.field}"]`) : null;
    if (input) {
      input.focus({ preventScroll: true });
      input.scrollIntoView({ block: 'center' });
    } else {
      failureBox.current?.scrollIntoView({ block: 'nearest' });
    }
  }, [problem]);

  const showProblem = (fields: Partial<Record<Field, string>>) =>
    setProblem((p) => ({ field: FIELD_ORDER.find((f) => fields[f]) ?? null, seq: (p?.seq ?? 0) + 1 }));

  const submit = form.onSubmit(
    async (values) => {
      if (busy) return;
      setBusy(true);
      setFailure(null);
      try {
        await onSubmit(values);
      } catch (error) {
        const refusal = serverRefusal(error, failureTitle);
        for (const [field, message] of Object.entries(refusal.fields)) form.setFieldError(field, message);
        setFailure(refusal.message);
        showProblem(refusal.fields);
      } finally {
        setBusy(false);
      }
    },
    (errors) => showProblem(errors as Partial<Record<Field, string>>),
  );

  const text = (field: Field, extra: Record<string, unknown> = {}) => (
    <TextInput label={CUSTOMER_LABELS[field]} {...form.getInputProps(field)} key={form.key(field)} {...extra} />
  );
  // The agents already in use, so that one agent is not written two ways ("AGT-001", "agt 001"): the Agent report and
  // commissions group by the exact name. Any other name can still be typed (a new agent).
  const agents = useCollectionAgents().data?.agents.filter((a) => a !== NO_AGENT) ?? [];
  // A number as people write it in the organization's country (Settings → Phone Numbers): "0772 123 456" in Uganda.
  const phonePlaceholder = usePhoneCountry().data?.example.written ?? '0712 345 678';
  const agentField = () => (
    <Autocomplete
      label={CUSTOMER_LABELS.agent_id}
      placeholder="Choose one in use, or type a new one"
      data={agents}
      limit={20}
      comboboxProps={{ withinPortal: true }}
      {...form.getInputProps('agent_id')}
      key={form.key('agent_id')}
    />
  );
  const select = (field: Field, data: { value: string; label: string }[], isRequired = false) => (
    <Select
      label={CUSTOMER_LABELS[field]}
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
    <form ref={formRef} onSubmit={submit} noValidate aria-label={submitLabel}>
      <Stack gap="md">
        {failure ? (
          <div ref={failureBox}>
            <ErrorAlert title={failureTitle} message={failure} />
          </div>
        ) : null}
        <Section title="Identity and contact">
          {text('customer_name', { withAsterisk: true, autoComplete: 'off', 'data-autofocus': true })}
          {text('id_number', { withAsterisk: true, autoComplete: 'off' })}
          {text('phone_contact', { withAsterisk: true, type: 'tel', placeholder: phonePlaceholder })}
          {text('email', { type: 'email', placeholder: 'name@example.com' })}
          {select('gender', options(GENDERS))}
          <DateInput
            label={CUSTOMER_LABELS.date_of_birth}
            data-path="date_of_birth"
            error={form.errors.date_of_birth}
            valueFormat="YYYY-MM-DD"
            placeholder="YYYY-MM-DD"
            clearable
            maxDate={today}
            popoverProps={{ withinPortal: true }}
            dateParser={(input) => toIsoDate(input)}
            value={form.values.date_of_birth || null}
            onChange={(v) => form.setFieldValue('date_of_birth', typeof v === 'string' ? v : '')}
          />
          {select('marital_status', options(MARITAL_STATUSES))}
          {text('country')}
        </Section>
        <Section title="Location">
          {text('county')}
          {text('constituency')}
          {text('ward')}
          {text('sub_location')}
          {text('village')}
          {text('postal_address')}
        </Section>
        <Section title="Work and education">
          {text('occupation')}
          {text('employer_name')}
          {select('education_level', options(EDUCATION_LEVELS))}
          {agentField()}
        </Section>
        <Section title="Account">
          {select('preferred_language', options(LANGUAGES), true)}
          {select('customer_type', options(CUSTOMER_TYPES, capitalize), true)}
          {select('status', options(CUSTOMER_STATUSES, capitalize), true)}
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
