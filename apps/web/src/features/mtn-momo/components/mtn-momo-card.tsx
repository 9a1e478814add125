import { NativeSelect, SimpleGrid, Stack, Switch, Text, TextInput } from '@mantine/core';
import { IconWallet } from '@tabler/icons-react';
import { MTN_MOMO_TARGETS, mtnMomoTargetOf, ZMtnMomoInputSchema, type MtnMomoInput, type MtnMomoSettings, type MtnMomoTarget } from '@kidogo/contracts';
import { ErrorAlert } from '@/components/ui/error-alert';
import {
  CallbackAddress,
  ConnectionTestResult,
  missingSecrets,
  ProviderFormActions,
  ProviderReadiness,
  StoredSecretInput,
  typedSecrets,
  useProviderForm,
} from '@/features/settings/components/payment-provider-settings';
import { SettingsFormCard } from '@/features/settings/components/settings-form-card';
import { errorMessage } from '@/lib/api-client';
import { schemaErrors } from '@/lib/validation';
import { useMtnMomoSettings } from '../api/get-mtn-momo-settings';
import { useTestMtnMomo } from '../api/test-mtn-momo';
import { useUpdateMtnMomoSettings } from '../api/update-mtn-momo-settings';

export const MTN_MOMO_SAVE_FAILED = 'Failed to save MTN MoMo settings';

/** The form's labels: client-side and server messages read "API Key is required". */
const LABELS = {
  target_environment: 'Market',
  api_user: 'API User',
  api_key: 'API Key',
  subscription_key: 'Subscription Key',
  is_active: 'Active',
};
type Field = keyof typeof LABELS;

const SECRETS = ['api_key', 'subscription_key'] as const;

/** "Uganda (UGX)", …, "Sandbox: test money (EUR)". */
export const marketLabel = (m: (typeof MTN_MOMO_TARGETS)[number]) => `${m.target === 'sandbox' ? 'Sandbox: test money' : m.country} (${m.currency})`;

interface Draft {
  target_environment: MtnMomoTarget;
  api_user: string;
  /** The secrets start as GET masked them; a masked value saved as it is keeps the stored one. */
  api_key: string;
  subscription_key: string;
  is_active: boolean;
}

const draftOf = (s: MtnMomoSettings): Draft => ({
  target_environment: s.target_environment,
  api_user: s.api_user ?? '',
  api_key: s.api_key ?? '',
  subscription_key: s.subscription_key ?? '',
  // Setting it up is meant to turn it on; after that the switch says what is saved.
  is_active: s.configured ? s.is_active : true,
});

/** The PUT body: a secret left as GET masked it, or emptied, is left out and keeps its stored value. */
export function toMtnMomoInput(d: Draft, s: MtnMomoSettings): MtnMomoInput {
  return { target_environment: d.target_environment, api_user: d.api_user.trim(), ...typedSecrets(d, s, SECRETS), is_active: d.is_active };
}

/** The contract's rules, plus what only the API can tell from the stored row: the first save needs both keys. */
function validate(d: Draft, s: MtnMomoSettings): Partial<Record<Field, string>> {
  const errors = schemaErrors(ZMtnMomoInputSchema, toMtnMomoInput(d, s), LABELS);
  if (!d.api_user.trim()) errors.api_user = `${LABELS.api_user} is required`;
  return { ...errors, ...missingSecrets(d, s, SECRETS, LABELS) };
}

/** What choosing a market means: its money, or that the sandbox moves none. */
function marketNote(target: MtnMomoTarget): string {
  const m = mtnMomoTargetOf(target);
  if (!m || m.target === 'sandbox') return "MTN's test system (momodeveloper.mtn.com): no real money moves";
  return `Requests ask for ${m.currency}, from MTN MoMo wallets in ${m.country}`;
}

function MtnMomoForm({ settings }: { settings: MtnMomoSettings }) {
  const save = useUpdateMtnMomoSettings();
  const test = useTestMtnMomo();
  // The test tries what is saved: changes not saved yet are not what it tries.
  const { draft, errors, set, unsaved, submit } = useProviderForm({
    settings,
    draftOf,
    toInput: toMtnMomoInput,
    validate,
    labels: LABELS,
    save,
    test,
    saved: (d) => (d.is_active ? 'MTN MoMo settings saved' : 'MTN MoMo settings saved: it is off'),
  });

  return (
    <form onSubmit={submit} noValidate aria-label="MTN MoMo settings">
      <Stack gap="md">
        <ProviderReadiness setUp={settings} />
        {save.isError ? <ErrorAlert title={MTN_MOMO_SAVE_FAILED} message={errorMessage(save.error, MTN_MOMO_SAVE_FAILED)} /> : null}
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <NativeSelect
            label={LABELS.target_environment}
            withAsterisk
            description={marketNote(draft.target_environment)}
            data={MTN_MOMO_TARGETS.map((m) => ({ value: m.target, label: marketLabel(m) }))}
            value={draft.target_environment}
            onChange={(e) => set('target_environment', e.currentTarget.value as MtnMomoTarget)}
            error={errors.target_environment}
          />
          <TextInput
            label={LABELS.api_user}
            withAsterisk
            description="The API user MTN gave you (a UUID)"
            placeholder="xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx"
            value={draft.api_user}
            onChange={(e) => set('api_user', e.currentTarget.value)}
            error={errors.api_user}
            autoComplete="off"
            spellCheck={false}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          />
        </SimpleGrid>
        <Text size="xs" c="dimmed">
          The API user&apos;s API key, and the subscription key of your Collections product (its primary key): from MTN&apos;s partner portal for
          a market, from momodeveloper.mtn.com for the sandbox. Sandbox keys work only in the sandbox.
        </Text>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          {SECRETS.map((k) => (
            <StoredSecretInput key={k} label={LABELS[k]} stored={settings[k]} value={draft[k]} error={errors[k]} onChange={(v) => set(k, v)} />
          ))}
        </SimpleGrid>
        <Switch
          label="Active: staff can ask customers to pay with MTN MoMo"
          checked={draft.is_active}
          onChange={(e) => set('is_active', e.currentTarget.checked)}
        />
        {settings.callback_host ? (
          <CallbackAddress heading="Callback host to give MTN" value={settings.callback_host} testId="mtn-momo-callback-host" copyLabel="Copy callback host">
            MTN sends results only to your API user&apos;s callback host: give MTN this host when it creates your API user (in the sandbox, create it
            with this providerCallbackHost).
          </CallbackAddress>
        ) : null}
        {settings.callback_base ? (
          <CallbackAddress heading="MTN posts results to" value={settings.callback_base} testId="mtn-momo-callback">
            Each request adds its own secret path. This server must be reachable there from the internet.
          </CallbackAddress>
        ) : null}
        <ConnectionTestResult test={test} />
        <ProviderFormActions setUp={settings} unsaved={unsaved} test={test} saving={save.isPending} saveLabel="Save MTN MoMo" />
      </Stack>
    </form>
  );
}

/**
 * MTN MoMo (Request to Pay, MTN's Collections API): the organization's
 * market, API user and keys, so staff can ask a customer in Uganda, Rwanda,
 * Zambia or Ghana to pay from a device's page or Collections. Owners and
 * admins only (the API refuses staff).
 */
export function MtnMomoCard() {
  return (
    <SettingsFormCard
      title="MTN MoMo"
      icon={<IconWallet size={20} />}
      description={
        <>
          Ask a customer to pay from Kidogo with MTN MoMo: their phone asks them to approve the amount with their MoMo PIN, with the device&apos;s
          serial number as the reference. The payment is applied like any other.
        </>
      }
      query={useMtnMomoSettings()}
      loadFailed="Failed to load MTN MoMo settings"
    >
      {(data) => <MtnMomoForm key={data.updated_at ?? 'new'} settings={data} />}
    </SettingsFormCard>
  );
}
