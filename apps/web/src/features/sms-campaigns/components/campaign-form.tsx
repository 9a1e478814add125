import '@mantine/dates/styles.css';
import { Autocomplete, Button, Card, Group, Input, MultiSelect, SegmentedControl, Select, SimpleGrid, Stack, Text, Textarea, TextInput, ThemeIcon, Title } from '@mantine/core';
import { DateTimePicker } from '@mantine/dates';
import { IconEye, IconSend, IconSpeakerphone } from '@tabler/icons-react';
import {
  CAMPAIGN_CUSTOMER_GROUP_LABELS,
  CAMPAIGN_CUSTOMER_GROUPS,
  CAMPAIGN_SMS_PLACEHOLDERS,
  MAX_CAMPAIGN_DAYS_AHEAD,
  MAX_CAMPAIGN_SMS_PARTS,
  REPAYMENT_STANDING_LABELS,
  REPAYMENT_STANDINGS,
  smsParts,
  ZCampaignInputSchema,
} from '@kidogo/contracts';
import dayjs from 'dayjs';
import { useRef, useState } from 'react';
import { ConfirmModal } from '@/components/ui/confirm-modal';
import { formatDate } from '@/components/ui/date-text';
import { ErrorAlert } from '@/components/ui/error-alert';
import { useCollectionAgents } from '@/features/collections/api/get-collection-agents';
import { apiFieldErrors, errorMessage } from '@/lib/api-client';
import { useBusinessToday } from '@/lib/business-day';
import { toast } from '@/lib/notify';
import { useSendSmsCampaign, useSmsCampaignPreview } from '../api/send-sms-campaign';
import type { CampaignCustomerGroup, CampaignInput, CampaignReply, RepaymentStanding } from '../api/types';
import { CampaignPreview, texts } from './campaign-preview';

export const PREVIEW_FAILED = 'Failed to preview the bulk SMS';
export const SEND_FAILED = 'Failed to send the bulk SMS';

type Placeholder = keyof typeof CAMPAIGN_SMS_PLACEHOLDERS;
const PLACEHOLDERS = Object.keys(CAMPAIGN_SMS_PLACEHOLDERS) as Placeholder[];

/** The form's fields by the API's names for them (a 400 names the field so), with their labels. */
export const LABELS = {
  'audience.customers': 'Customers',
  'audience.standing': 'Repayment standing',
  'audience.product_name': 'Product',
  'audience.county': 'County',
  'audience.agent': 'Sales agent',
  text: 'Message',
  send_at: 'Send at',
} as const;
type Field = keyof typeof LABELS;
type FieldErrors = Partial<Record<Field, string>>;

const CUSTOMER_OPTIONS = CAMPAIGN_CUSTOMER_GROUPS.map((g) => ({ value: g, label: CAMPAIGN_CUSTOMER_GROUP_LABELS[g] }));
const STANDING_OPTIONS = REPAYMENT_STANDINGS.map((s) => ({ value: s, label: REPAYMENT_STANDING_LABELS[s] }));

export interface CampaignFormValues {
  customers: CampaignCustomerGroup;
  standing: RepaymentStanding[];
  product_name: string;
  county: string;
  agent: string;
  text: string;
  when: 'now' | 'later';
  /** 'YYYY-MM-DD HH:mm:ss' in the browser's time, as the picker gives it. */
  send_at: string | null;
}

export const EMPTY_CAMPAIGN: CampaignFormValues = {
  customers: 'with_device',
  standing: [],
  product_name: '',
  county: '',
  agent: '',
  text: '',
  when: 'now',
  send_at: null,
};

/** A device's filters (standing, product) do not apply to customers without one: the API refuses them. */
const holdsDevices = (customers: CampaignCustomerGroup) => customers !== 'without_device';

/**
 * The request's body but dry_run: the filters given (text trimmed, the empty
 * ones and a device's filters for customers without one left out), and
 * send_at in ISO 8601 with the browser's offset when a time is set.
 */
export function toCampaignInput(v: CampaignFormValues): Omit<CampaignInput, 'dry_run'> {
  const product = v.product_name.trim();
  const county = v.county.trim();
  const agent = v.agent.trim();
  const devices = holdsDevices(v.customers);
  return {
    audience: {
      customers: v.customers,
      ...(devices && v.standing.length ? { standing: REPAYMENT_STANDINGS.filter((s) => v.standing.includes(s)) } : {}),
      ...(devices && product ? { product_name: product } : {}),
      ...(county ? { county } : {}),
      ...(agent ? { agent } : {}),
    },
    text: v.text.trim(),
    ...(v.when === 'later' && v.send_at ? { send_at: dayjs(v.send_at).format() } : {}),
  };
}

/** A message under its field: "Message is required", but "{foo} is not a placeholder: use {name}, {full_name}" as it is. */
export const fieldSentence = (field: Field, message: string) => (/^(is|are|must)\b/.test(message) ? `${LABELS[field]} ${message}` : message);

/** Each field's first problem, as a sentence; unknown fields left out (the caller shows those apart). */
function sentencesOf(problems: { field: string; message: string }[]): FieldErrors {
  const errors: FieldErrors = {};
  for (const { field, message } of problems) {
    if (field in LABELS && !errors[field as Field]) errors[field as Field] = fieldSentence(field as Field, message);
  }
  return errors;
}

/** What the API would refuse in the form, in its words, before asking it; and a time to choose when "At a set time" is. */
export function validateCampaign(v: CampaignFormValues): FieldErrors {
  const result = ZCampaignInputSchema.safeParse({ ...toCampaignInput(v), dry_run: true });
  const errors = sentencesOf(result.success ? [] : result.error.issues.map((i) => ({ field: i.path.map(String).join('.'), message: i.message })));
  if (v.when === 'later' && !v.send_at) errors.send_at = 'Choose the day and time to send it';
  return errors;
}

/** The text's own problem (an unknown placeholder, too long) as the user types; null when it is fine or empty. */
function textProblem(text: string): string | null {
  if (!text.trim()) return null;
  return validateCampaign({ ...EMPTY_CAMPAIGN, text }).text ?? null;
}

/** "now", or "on 7 Dec 2026, 09:00". */
const whenPhrase = (body: Omit<CampaignInput, 'dry_run'>) => (body.send_at ? `on ${formatDate(body.send_at, true)}` : 'now');

/** A preview, and the body it was made for (the form may have changed since). */
interface Previewed {
  key: string;
  body: Omit<CampaignInput, 'dry_run'>;
  reply: CampaignReply;
}

/**
 * New Bulk SMS: whom (customers with or without a device, narrowed by
 * repayment standing, product, county, sales agent), what (placeholders
 * filled in for each customer, with the SMS count) and when (now or a set
 * time). Preview counts them on the server and fills in the first three;
 * Send previews again when the form changed since, then asks before sending.
 */
export function CampaignForm() {
  const [values, setValues] = useState<CampaignFormValues>(EMPTY_CAMPAIGN);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [previewed, setPreviewed] = useState<Previewed | null>(null);
  const [confirming, setConfirming] = useState(false);
  const area = useRef<HTMLTextAreaElement>(null);
  const preview = useSmsCampaignPreview();
  const send = useSendSmsCampaign();
  const agents = useCollectionAgents();
  const today = useBusinessToday();

  const body = toCampaignInput(values);
  const key = JSON.stringify(body);
  const current = previewed?.key === key ? previewed : null;
  const busy = preview.isPending || send.isPending;
  const devices = holdsDevices(values.customers);
  const typedProblem = textProblem(values.text);
  const parts = smsParts(values.text.trim());
  const tooLong = parts.parts > MAX_CAMPAIGN_SMS_PARTS;

  const set = <K extends keyof CampaignFormValues>(field: K, value: CampaignFormValues[K], clears: Field[] = []) => {
    setValues((v) => ({ ...v, [field]: value }));
    if (clears.length) setErrors((e) => Object.fromEntries(Object.entries(e).filter(([f]) => !clears.includes(f as Field))));
    setFailure(null);
  };

  /** A refusal: each field's under it, anything else (a 409, an audience nobody is in) above the buttons. */
  const refused = (error: unknown, fallback: string) => {
    const fields = apiFieldErrors(error);
    const shown = sentencesOf(Object.entries(fields).map(([field, message]) => ({ field, message })));
    setErrors(shown);
    setFailure(Object.keys(shown).length ? null : errorMessage(error, fallback));
  };

  /** Checks the form; false (with the problems shown) when the API would refuse it. */
  const checked = () => {
    const found = validateCampaign(values);
    setErrors(found);
    setFailure(null);
    return Object.keys(found).length === 0;
  };

  const runPreview = (then?: (p: Previewed) => void) => {
    if (!checked()) return;
    preview.mutate(body, {
      onSuccess: (reply) => {
        const p = { key, body, reply };
        setPreviewed(p);
        then?.(p);
      },
      onError: (error) => {
        setPreviewed(null);
        refused(error, PREVIEW_FAILED);
      },
    });
  };

  const askToSend = () => {
    if (current) {
      if (checked() && current.reply.recipients > 0) setConfirming(true);
      return;
    }
    runPreview((p) => {
      if (p.reply.recipients > 0) setConfirming(true);
    });
  };

  const confirmSend = () => {
    if (!current) return;
    send.mutate(current.body, {
      onSuccess: (reply) => {
        toast.success(reply.message);
        setConfirming(false);
        setPreviewed(null);
        setValues((v) => ({ ...v, text: '', when: 'now', send_at: null }));
        send.reset();
      },
      onError: (error) => {
        setConfirming(false);
        refused(error, SEND_FAILED);
      },
    });
  };

  const insert = (placeholder: Placeholder) => {
    const el = area.current;
    const at = el?.selectionStart ?? values.text.length;
    const next = `${values.text.slice(0, at)}{${placeholder}}${values.text.slice(el?.selectionEnd ?? at)}`;
    set('text', next, ['text']);
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(at + placeholder.length + 2, at + placeholder.length + 2);
    });
  };

  return (
    <Card padding="lg" radius="md" mb="lg" role="region" aria-label="New Bulk SMS">
      <Group gap="sm" mb="md" wrap="nowrap">
        <ThemeIcon variant="light" size={40} radius="md" aria-hidden>
          <IconSpeakerphone size={22} />
        </ThemeIcon>
        <div>
          <Title order={4}>New Bulk SMS</Title>
          <Text size="sm" c="dimmed">
            Every filter you fill in narrows the group.
          </Text>
        </div>
      </Group>
      <form
        noValidate
        aria-label="New Bulk SMS"
        onSubmit={(e) => {
          e.preventDefault();
          askToSend();
        }}
      >
        <Stack gap="md">
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
            <Select
              label={LABELS['audience.customers']}
              data={CUSTOMER_OPTIONS}
              value={values.customers}
              allowDeselect={false}
              onChange={(v) => v && set('customers', v as CampaignCustomerGroup, ['audience.customers', 'audience.standing', 'audience.product_name'])}
              error={errors['audience.customers']}
              disabled={busy}
              comboboxProps={{ withinPortal: true }}
            />
            <MultiSelect
              label={LABELS['audience.standing']}
              placeholder={values.standing.length ? undefined : devices ? 'Any standing' : 'Only for customers with a device'}
              data={STANDING_OPTIONS}
              value={devices ? values.standing : []}
              onChange={(v) => set('standing', REPAYMENT_STANDINGS.filter((s) => v.includes(s)), ['audience.standing'])}
              clearable
              error={errors['audience.standing']}
              disabled={busy || !devices}
              comboboxProps={{ withinPortal: true }}
            />
            <TextInput
              label={LABELS['audience.product_name']}
              placeholder={devices ? 'Any product' : 'Only for customers with a device'}
              title="Customers holding a device of this product (its name, whatever the case)"
              value={devices ? values.product_name : ''}
              onChange={(e) => set('product_name', e.currentTarget.value, ['audience.product_name'])}
              error={errors['audience.product_name']}
              disabled={busy || !devices}
            />
            <TextInput
              label={LABELS['audience.county']}
              placeholder="Any county"
              value={values.county}
              onChange={(e) => set('county', e.currentTarget.value, ['audience.county'])}
              error={errors['audience.county']}
              disabled={busy}
            />
            <Autocomplete
              label={LABELS['audience.agent']}
              placeholder="Any agent"
              // Any agent may be typed: the list offered is the agents with open accounts.
              data={agents.data?.agents ?? []}
              value={values.agent}
              onChange={(v) => set('agent', v, ['audience.agent'])}
              error={errors['audience.agent']}
              disabled={busy}
              comboboxProps={{ withinPortal: true }}
            />
          </SimpleGrid>

          <div>
            <Textarea
              ref={area}
              label={LABELS.text}
              placeholder="e.g. Habari {name}, our Nakuru shop has moved to Kenyatta Avenue, next to the post office."
              withAsterisk
              autosize
              minRows={3}
              value={values.text}
              onChange={(e) => set('text', e.currentTarget.value, ['text'])}
              error={errors.text ?? typedProblem}
              disabled={busy}
              description={
                <Text span size="xs" c={tooLong ? 'red' : 'dimmed'} aria-live="polite">
                  {parts.length} characters · {parts.parts} SMS{parts.encoding === 'UCS-2' ? ' (special characters: 70 a message)' : ''}
                  {tooLong ? ` · at most ${MAX_CAMPAIGN_SMS_PARTS} SMS a customer` : ''} · a placeholder counts as written: the names change the length
                </Text>
              }
              inputWrapperOrder={['label', 'input', 'description', 'error']}
            />
            <Text size="xs" c="dimmed" mt={6} mb={4}>
              Insert a placeholder, filled in for each customer:
            </Text>
            <Group gap={6}>
              {PLACEHOLDERS.map((p) => (
                <Button key={p} size="compact-xs" variant="light" title={CAMPAIGN_SMS_PLACEHOLDERS[p]} onClick={() => insert(p)} disabled={busy}>
                  {`{${p}}`}
                </Button>
              ))}
            </Group>
          </div>

          <Group gap="md" align="flex-start" wrap="wrap">
            <Input.Wrapper label="Send" labelElement="div">
              <SegmentedControl
                display="flex"
                aria-label="Send"
                data={[
                  { value: 'now', label: 'Now' },
                  { value: 'later', label: 'At a set time' },
                ]}
                value={values.when}
                onChange={(v) => set('when', v as CampaignFormValues['when'], ['send_at'])}
                disabled={busy}
              />
            </Input.Wrapper>
            {values.when === 'later' ? (
              <DateTimePicker
                label={LABELS.send_at}
                placeholder="Choose the day and time"
                description={`Up to ${MAX_CAMPAIGN_DAYS_AHEAD} days ahead, in your time`}
                valueFormat="DD MMM YYYY HH:mm"
                minDate={today}
                maxDate={dayjs(today).add(MAX_CAMPAIGN_DAYS_AHEAD, 'day').format('YYYY-MM-DD')}
                value={values.send_at}
                onChange={(v) => set('send_at', v, ['send_at'])}
                error={errors.send_at}
                disabled={busy}
                clearable
                timePickerProps={{ hoursInputLabel: 'Hour', minutesInputLabel: 'Minutes' }}
                submitButtonProps={{ 'aria-label': 'Set the day and time' }}
                popoverProps={{ withinPortal: true }}
                w={{ base: '100%', xs: 260 }}
              />
            ) : null}
          </Group>

          {current ? <CampaignPreview reply={current.reply} /> : null}
          {failure ? <ErrorAlert title="Not sent" message={failure} /> : null}

          <Group justify="flex-end" gap="sm">
            <Button variant="default" leftSection={<IconEye size={16} />} onClick={() => runPreview()} loading={preview.isPending} disabled={send.isPending}>
              Preview
            </Button>
            <Button type="submit" leftSection={<IconSend size={16} />} disabled={busy || (current !== null && current.reply.recipients === 0)}>
              Send
            </Button>
          </Group>
        </Stack>
      </form>

      <ConfirmModal
        opened={confirming && current !== null}
        onClose={() => setConfirming(false)}
        onConfirm={confirmSend}
        loading={send.isPending}
        color="blue"
        title={current?.body.send_at ? 'Schedule Bulk SMS' : 'Send Bulk SMS'}
        confirmLabel={current ? `${current.body.send_at ? 'Schedule' : 'Send'} ${texts(current.reply.recipients)}` : 'Send'}
        message={
          current ? (
            <Stack gap="xs">
              <Text size="sm" fw={600}>
                Send {texts(current.reply.recipients)} to {current.reply.audience_text}?
              </Text>
              <Text size="sm">
                {current.reply.parts.toLocaleString()} SMS in all (what your SMS provider bills), {whenPhrase(current.body)}.
              </Text>
              <Text size="sm" c="dimmed">
                {current.body.send_at
                  ? 'You can cancel it under Sent and scheduled until it goes out.'
                  : 'They go out at once through your SMS provider: those sent cannot be called back.'}
              </Text>
            </Stack>
          ) : null
        }
      />
    </Card>
  );
}
