import { Group, NativeSelect, SimpleGrid, Stack, Switch, Text, TextInput } from '@mantine/core';
import { IconAlertTriangle, IconDeviceMobileMessage } from '@tabler/icons-react';
import {
  AIRTEL_MONEY_BASE_URLS,
  AIRTEL_MONEY_COUNTRIES,
  AIRTEL_MONEY_ENVIRONMENTS,
  airtelMoneyCountryOf,
  ZAirtelMoneyInputSchema,
  type AirtelMoneyCountry,
  type AirtelMoneyEnvironment,
  type AirtelMoneyInput,
  type AirtelMoneySettings,
} from '@kidogo/contracts';
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
import { useAirtelMoneySettings } from '../api/get-airtel-money-settings';
import { useTestAirtelMoney } from '../api/test-airtel-money';
import { useUpdateAirtelMoneySettings } from '../api/update-airtel-money-settings';

export const AIRTEL_MONEY_SAVE_FAILED = 'Failed to save Airtel Money settings';

/** The form's labels: client-side and server messages read "Client ID is required". */
const LABELS = {
  country: 'Market',
  environment: 'Airtel System',
  client_id: 'Client ID',
  client_secret: 'Client Secret',
  is_active: 'Active',
};
type Field = keyof typeof LABELS;

const SECRETS = ['client_secret'] as const;

const ENVIRONMENT_LABELS: Record<AirtelMoneyEnvironment, string> = { staging: 'Staging (test money)', production: 'Production' };

/** "Uganda (UGX)". */
export const marketLabel = (m: (typeof AIRTEL_MONEY_COUNTRIES)[number]) => `${m.name} (${m.currency})`;

interface Draft {
  country: AirtelMoneyCountry;
  environment: AirtelMoneyEnvironment;
  client_id: string;
  /** The secret starts as GET masked it; a masked value saved as it is keeps the stored one. */
  client_secret: string;
  is_active: boolean;
}

const draftOf = (s: AirtelMoneySettings): Draft => ({
  country: s.country,
  environment: s.environment,
  client_id: s.client_id ?? '',
  client_secret: s.client_secret ?? '',
  // Setting it up is meant to turn it on; after that the switch says what is saved.
  is_active: s.configured ? s.is_active : true,
});

/** The PUT body: a secret left as GET masked it, or emptied, is left out and keeps its stored value. */
export function toAirtelMoneyInput(d: Draft, s: AirtelMoneySettings): AirtelMoneyInput {
  return { country: d.country, environment: d.environment, client_id: d.client_id.trim(), ...typedSecrets(d, s, SECRETS), is_active: d.is_active };
}

/** The contract's rules, plus what only the API can tell from the stored row: the first save needs the secret. */
function validate(d: Draft, s: AirtelMoneySettings): Partial<Record<Field, string>> {
  return { ...schemaErrors(ZAirtelMoneyInputSchema, toAirtelMoneyInput(d, s), LABELS), ...missingSecrets(d, s, SECRETS, LABELS) };
}

/** What choosing a market means: its money, and the phones Airtel prompts there. */
function marketNote(country: AirtelMoneyCountry): string {
  const m = airtelMoneyCountryOf(country)!;
  return `Requests ask for ${m.currency}, from Airtel Money wallets in ${m.name} (+${m.calling_code} numbers)`;
}

/** What choosing Airtel's system means: test money or real money, and where Kidogo calls. */
function environmentNote(environment: AirtelMoneyEnvironment): string {
  const host = new URL(AIRTEL_MONEY_BASE_URLS[environment]).host;
  return environment === 'staging' ? `Airtel's test system (${host}): no real money moves` : `Airtel's live system (${host}): real money`;
}

function AirtelMoneyForm({ settings }: { settings: AirtelMoneySettings }) {
  const save = useUpdateAirtelMoneySettings();
  const test = useTestAirtelMoney();
  // The test tries what is saved: changes not saved yet are not what it tries.
  const { draft, errors, set, unsaved, submit } = useProviderForm({
    settings,
    draftOf,
    toInput: toAirtelMoneyInput,
    validate,
    labels: LABELS,
    save,
    test,
    saved: (d) => (d.is_active ? 'Airtel Money settings saved' : 'Airtel Money settings saved: it is off'),
  });

  return (
    <form onSubmit={submit} noValidate aria-label="Airtel Money settings">
      <Stack gap="md">
        <ProviderReadiness setUp={settings} />
        {save.isError ? <ErrorAlert title={AIRTEL_MONEY_SAVE_FAILED} message={errorMessage(save.error, AIRTEL_MONEY_SAVE_FAILED)} /> : null}
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <NativeSelect
            label={LABELS.country}
            withAsterisk
            description={marketNote(draft.country)}
            data={AIRTEL_MONEY_COUNTRIES.map((m) => ({ value: m.country, label: marketLabel(m) }))}
            value={draft.country}
            onChange={(e) => set('country', e.currentTarget.value as AirtelMoneyCountry)}
            error={errors.country}
          />
          <NativeSelect
            label={LABELS.environment}
            withAsterisk
            description={environmentNote(draft.environment)}
            data={AIRTEL_MONEY_ENVIRONMENTS.map((e) => ({ value: e, label: ENVIRONMENT_LABELS[e] }))}
            value={draft.environment}
            onChange={(e) => set('environment', e.currentTarget.value as AirtelMoneyEnvironment)}
            error={errors.environment}
          />
        </SimpleGrid>
        <Text size="xs" c="dimmed">
          The client id and secret of your app on Airtel&apos;s developer portal (developers.airtel.africa), with the Collections product. Staging
          keys work only on staging.
        </Text>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <TextInput
            label={LABELS.client_id}
            withAsterisk
            value={draft.client_id}
            onChange={(e) => set('client_id', e.currentTarget.value)}
            error={errors.client_id}
            autoComplete="off"
            spellCheck={false}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          />
          <StoredSecretInput
            label={LABELS.client_secret}
            stored={settings.client_secret}
            value={draft.client_secret}
            error={errors.client_secret}
            onChange={(v) => set('client_secret', v)}
          />
        </SimpleGrid>
        <Switch
          label="Active: staff can ask customers to pay with Airtel Money"
          checked={draft.is_active}
          onChange={(e) => set('is_active', e.currentTarget.checked)}
        />
        {settings.callback_url ? (
          <CallbackAddress heading="Callback URL to set on your Airtel app" value={settings.callback_url} testId="airtel-money-callback" copyLabel="Copy callback URL">
            Paste it as your app&apos;s callback URL in Airtel&apos;s developer portal: Airtel posts there how each request ended. This server must be
            reachable there from the internet.
          </CallbackAddress>
        ) : (
          <Group gap={6} wrap="nowrap" align="flex-start" data-testid="airtel-money-no-callback">
            <IconAlertTriangle size={16} color="var(--mantine-color-yellow-6)" style={{ flexShrink: 0, marginTop: 2 }} />
            <Text size="xs" c="dimmed">
              No callback URL to give Airtel: this server&apos;s PUBLIC_URL is not set. Its administrator sets PUBLIC_URL to the https address the
              internet reaches it at; the URL shows here then.
            </Text>
          </Group>
        )}
        <ConnectionTestResult test={test} />
        <ProviderFormActions setUp={settings} unsaved={unsaved} test={test} saving={save.isPending} saveLabel="Save Airtel Money" />
      </Stack>
    </form>
  );
}

/**
 * Airtel Money (USSD push, the Collections product of Airtel Africa's Open
 * API): the organization's market, Airtel's system and its app's client id
 * and secret, so staff can ask a customer to pay from a device's page or
 * Collections. Owners and admins only (the API refuses staff).
 */
export function AirtelMoneyCard() {
  return (
    <SettingsFormCard
      title="Airtel Money"
      icon={<IconDeviceMobileMessage size={20} />}
      description={
        <>
          Ask customers in Kenya, Uganda, Tanzania, Rwanda, Zambia, Malawi and more to pay by Airtel Money: Airtel prompts their phone to approve the
          amount with their Airtel Money PIN, with the device&apos;s serial number as the reference. Kidogo confirms each result with Airtel before
          recording it, and the payment is applied like any other.
        </>
      }
      query={useAirtelMoneySettings()}
      loadFailed="Failed to load Airtel Money settings"
    >
      {(data) => <AirtelMoneyForm key={data.updated_at ?? 'new'} settings={data} />}
    </SettingsFormCard>
  );
}
