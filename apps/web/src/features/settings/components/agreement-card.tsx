import { Button, Group, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { IconSignature } from '@tabler/icons-react';
import { AGREEMENT_EXTRA_TERMS_MAX, AGREEMENT_SELLER_DETAILS_MAX, extraTermsOf, type AgreementSettings } from '@kidogo/contracts';
import { useState, type FormEvent } from 'react';
import { ErrorAlert } from '@/components/ui/error-alert';
import { apiFieldErrors, errorMessage } from '@/lib/api-client';
import { toast } from '@/lib/notify';
import { SettingsFormCard } from './settings-form-card';
import { useAgreementSettings, useUpdateAgreementSettings } from '../api/agreement-settings';

export const AGREEMENT_SAVE_FAILED = "Failed to save the agreement's settings";
/** The standard terms the organization's own come after. */
const STANDARD_TERMS = 7;

interface Draft {
  seller_details: string;
  paybill: string;
  extra_terms: string;
}

const draftOf = (s: AgreementSettings): Draft => ({ seller_details: s.seller_details ?? '', paybill: s.paybill ?? '', extra_terms: s.extra_terms ?? '' });

const LABELS: Record<keyof Draft, string> = { seller_details: 'Your details', paybill: 'Paybill or till number', extra_terms: 'Your own terms' };

/** The form's own checks, in the API's words. */
export function validateAgreement(d: Draft): Partial<Record<keyof Draft, string>> {
  const errors: Partial<Record<keyof Draft, string>> = {};
  if (d.seller_details.trim().length > AGREEMENT_SELLER_DETAILS_MAX) errors.seller_details = `${LABELS.seller_details} must be at most ${AGREEMENT_SELLER_DETAILS_MAX} characters`;
  if (d.paybill.trim() && !/^\d{5,10}$/.test(d.paybill.trim())) errors.paybill = `${LABELS.paybill} must be 5 to 10 digits`;
  if (d.extra_terms.trim().length > AGREEMENT_EXTRA_TERMS_MAX) errors.extra_terms = `${LABELS.extra_terms} must be at most ${AGREEMENT_EXTRA_TERMS_MAX.toLocaleString('en-US')} characters`;
  return errors;
}

function AgreementForm({ settings }: { settings: AgreementSettings }) {
  const [draft, setDraft] = useState<Draft>(() => draftOf(settings));
  const [errors, setErrors] = useState<Partial<Record<keyof Draft, string>>>({});
  const save = useUpdateAgreementSettings();
  const set = (k: keyof Draft, v: string) => {
    setDraft((d) => ({ ...d, [k]: v }));
    setErrors((e) => ({ ...e, [k]: undefined }));
  };
  const terms = extraTermsOf(draft.extra_terms).length;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (save.isPending) return;
    const found = validateAgreement(draft);
    setErrors(found);
    if (Object.keys(found).length) return;
    save.mutate(
      { seller_details: draft.seller_details, paybill: draft.paybill.trim(), extra_terms: draft.extra_terms },
      {
        onSuccess: (reply) => {
          setDraft(draftOf(reply));
          toast.success("The agreement's settings were saved");
        },
        onError: (error) => {
          const fields = apiFieldErrors(error);
          setErrors(Object.fromEntries(Object.entries(fields).filter(([f]) => f in LABELS).map(([f, m]) => [f, `${LABELS[f as keyof Draft]} ${m}`])));
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Agreement settings">
      <Stack gap="md">
        {save.isError && !Object.values(errors).some(Boolean) ? (
          <ErrorAlert title={AGREEMENT_SAVE_FAILED} message={errorMessage(save.error, AGREEMENT_SAVE_FAILED)} />
        ) : null}
        <Textarea
          label={LABELS.seller_details}
          description="Printed under your organization's name: address, phone, registration number"
          placeholder="P.O. Box 1234-30100, Eldoret · 0700 111 222"
          autosize
          minRows={2}
          maxRows={4}
          value={draft.seller_details}
          onChange={(e) => set('seller_details', e.currentTarget.value)}
          error={errors.seller_details}
        />
        <TextInput
          label={LABELS.paybill}
          description="The M-Pesa paybill or till number customers pay to, with the device's serial number as the account"
          placeholder="522533"
          inputMode="numeric"
          maw={260}
          value={draft.paybill}
          onChange={(e) => set('paybill', e.currentTarget.value)}
          error={errors.paybill}
        />
        <Textarea
          label={LABELS.extra_terms}
          description={`Printed after the ${STANDARD_TERMS} standard terms, each paragraph (a blank line apart) a numbered term of its own`}
          placeholder={'The battery is under warranty for two years.\n\nA stolen device must be reported to us within 7 days.'}
          autosize
          minRows={3}
          maxRows={12}
          value={draft.extra_terms}
          onChange={(e) => set('extra_terms', e.currentTarget.value)}
          error={errors.extra_terms}
        />
        <Group justify="space-between">
          <Text size="xs" c="dimmed">
            {terms ? `Terms ${STANDARD_TERMS + 1} to ${STANDARD_TERMS + terms} are yours.` : 'The agreement has the standard terms only.'} Print it from a device's page.
          </Text>
          <Button type="submit" loading={save.isPending}>
            Save Agreement
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * The PAYG agreement's settings: what the agreement a customer signs at the
 * sale says of the organization besides its name, where customers pay, and
 * the organization's own terms after the standard ones.
 */
export function AgreementCard() {
  return (
    <SettingsFormCard
      title="Agreement"
      icon={<IconSignature size={20} />}
      description="The agreement a customer signs when they take a device: your details, where they pay, and your own terms after the standard ones. Have them read by your lawyer."
      query={useAgreementSettings()}
      loadFailed="Failed to load the agreement's settings"
    >
      {(data) => <AgreementForm key={`${data.seller_details}|${data.paybill}|${data.extra_terms}`} settings={data} />}
    </SettingsFormCard>
  );
}
