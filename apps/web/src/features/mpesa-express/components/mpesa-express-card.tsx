import { Input, SegmentedControl, SimpleGrid, Stack, Switch, Text, TextInput } from '@mantine/core';
import { IconDeviceMobileDollar } from '@tabler/icons-react';
import {
  MPESA_EXPRESS_ENVIRONMENTS,
  MPESA_EXPRESS_TRANSACTION_TYPE_LABELS,
  MPESA_EXPRESS_TRANSACTION_TYPES,
  ZMpesaExpressInputSchema,
  type MpesaExpressEnvironment,
  type MpesaExpressInput,
  type MpesaExpressSettings,
  type MpesaExpressTransactionType,
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
import { useMpesaExpressSettings } from '../api/get-mpesa-express-settings';
import { useTestMpesaExpress } from '../api/test-mpesa-express';
import { useUpdateMpesaExpressSettings } from '../api/update-mpesa-express-settings';

export const MPESA_EXPRESS_SAVE_FAILED = 'Failed to save M-Pesa Express settings';

const ENVIRONMENT_LABELS: Record<MpesaExpressEnvironment, string> = { sandbox: 'Sandbox', production: 'Production' };

/** The form's labels: client-side and server messages read "Short Code must be … (5 to 7 digits)". */
const LABELS = {
  environment: 'Environment',
  transaction_type: 'Type',
  short_code: 'Short Code',
  till_number: 'Till Number',
  consumer_key: 'Consumer Key',
  consumer_secret: 'Consumer Secret',
  passkey: 'Passkey',
  is_active: 'Active',
};
type Field = keyof typeof LABELS;

const SECRETS = ['consumer_key', 'consumer_secret', 'passkey'] as const;

interface Draft {
  environment: MpesaExpressEnvironment;
  transaction_type: MpesaExpressTransactionType;
  short_code: string;
  till_number: string;
  /** The secrets start as GET masked them; a masked value saved as it is keeps the stored one. */
  consumer_key: string;
  consumer_secret: string;
  passkey: string;
  is_active: boolean;
}

const draftOf = (s: MpesaExpressSettings): Draft => ({
  environment: s.environment,
  transaction_type: s.transaction_type,
  short_code: s.short_code ?? '',
  till_number: s.till_number ?? '',
  consumer_key: s.consumer_key ?? '',
  consumer_secret: s.consumer_secret ?? '',
  passkey: s.passkey ?? '',
  // Setting it up is meant to turn it on; after that the switch says what is saved.
  is_active: s.configured ? s.is_active : true,
});

/**
 * The PUT body. A secret left as GET masked it, or emptied, is left out and
 * keeps its stored value; only one typed anew is sent. The till number goes
 * only with a till.
 */
export function toMpesaExpressInput(d: Draft, s: MpesaExpressSettings): MpesaExpressInput {
  const input: MpesaExpressInput = {
    environment: d.environment,
    transaction_type: d.transaction_type,
    short_code: d.short_code.trim(),
    is_active: d.is_active,
  };
  if (d.transaction_type === 'CustomerBuyGoodsOnline') input.till_number = d.till_number.trim();
  return { ...input, ...typedSecrets(d, s, SECRETS) };
}

/** The contract's rules, plus what only the API can tell from the stored row: the first save needs all three secrets. */
function validate(d: Draft, s: MpesaExpressSettings): Partial<Record<Field, string>> {
  const errors = schemaErrors(ZMpesaExpressInputSchema, toMpesaExpressInput(d, s), LABELS);
  if (!d.short_code.trim()) errors.short_code = `${LABELS.short_code} is required`;
  if (d.transaction_type === 'CustomerBuyGoodsOnline' && !d.till_number.trim()) errors.till_number = `${LABELS.till_number} is required for a till`;
  return { ...errors, ...missingSecrets(d, s, SECRETS, LABELS) };
}

function MpesaExpressForm({ settings }: { settings: MpesaExpressSettings }) {
  const save = useUpdateMpesaExpressSettings();
  const test = useTestMpesaExpress();
  // The test tries what is saved: changes not saved yet are not what it tries.
  const { draft, errors, set, unsaved, submit } = useProviderForm({
    settings,
    draftOf,
    toInput: toMpesaExpressInput,
    validate,
    labels: LABELS,
    save,
    test,
    saved: (d) => (d.is_active ? 'M-Pesa Express settings saved' : 'M-Pesa Express settings saved: it is off'),
  });
  const till = draft.transaction_type === 'CustomerBuyGoodsOnline';

  return (
    <form onSubmit={submit} noValidate aria-label="M-Pesa Express settings">
      <Stack gap="md">
        <ProviderReadiness setUp={settings} />
        {save.isError ? <ErrorAlert title={MPESA_EXPRESS_SAVE_FAILED} message={errorMessage(save.error, MPESA_EXPRESS_SAVE_FAILED)} /> : null}
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <Input.Wrapper label={LABELS.environment} error={errors.environment} labelElement="div">
            <SegmentedControl
              fullWidth
              aria-label={LABELS.environment}
              data={MPESA_EXPRESS_ENVIRONMENTS.map((e) => ({ value: e, label: ENVIRONMENT_LABELS[e] }))}
              value={draft.environment}
              onChange={(v) => set('environment', v as MpesaExpressEnvironment)}
            />
          </Input.Wrapper>
          <Input.Wrapper label={LABELS.transaction_type} error={errors.transaction_type} labelElement="div">
            <SegmentedControl
              fullWidth
              aria-label={LABELS.transaction_type}
              data={MPESA_EXPRESS_TRANSACTION_TYPES.map((t) => ({ value: t, label: MPESA_EXPRESS_TRANSACTION_TYPE_LABELS[t] }))}
              value={draft.transaction_type}
              onChange={(v) => set('transaction_type', v as MpesaExpressTransactionType)}
              // 'Till (Buy Goods)' wraps on a phone rather than being cut off.
              styles={{ control: { display: 'flex' }, label: { whiteSpace: 'normal', flex: 1, display: 'flex', alignItems: 'center', justifyContent: 'center' } }}
            />
          </Input.Wrapper>
          <TextInput
            label={LABELS.short_code}
            withAsterisk
            description={till ? 'The store number (head office) of your till' : 'Your paybill number'}
            placeholder="e.g. 174379"
            inputMode="numeric"
            value={draft.short_code}
            onChange={(e) => set('short_code', e.currentTarget.value)}
            error={errors.short_code}
            autoComplete="off"
          />
          {till ? (
            <TextInput
              label={LABELS.till_number}
              withAsterisk
              description="The till that receives the money"
              inputMode="numeric"
              value={draft.till_number}
              onChange={(e) => set('till_number', e.currentTarget.value)}
              error={errors.till_number}
              autoComplete="off"
            />
          ) : null}
        </SimpleGrid>
        <Text size="xs" c="dimmed">
          From your app on Safaricom&apos;s Daraja portal, and the Lipa na M-Pesa Online passkey Safaricom gave you.
        </Text>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          {SECRETS.map((k) => (
            <StoredSecretInput key={k} label={LABELS[k]} stored={settings[k]} value={draft[k]} error={errors[k]} onChange={(v) => set(k, v)} />
          ))}
        </SimpleGrid>
        <Switch label="Active: staff can ask customers to pay" checked={draft.is_active} onChange={(e) => set('is_active', e.currentTarget.checked)} />
        {settings.callback_base ? (
          <CallbackAddress heading="Safaricom posts results to" value={settings.callback_base} testId="mpesa-express-callback">
            Each request adds its own secret path. This server must be reachable there from the internet.
          </CallbackAddress>
        ) : null}
        <ConnectionTestResult test={test} />
        <ProviderFormActions setUp={settings} unsaved={unsaved} test={test} saving={save.isPending} saveLabel="Save M-Pesa Express" />
      </Stack>
    </form>
  );
}

/**
 * M-Pesa Express (STK push): the organization's Daraja keys and paybill or
 * till, so staff can ask a customer to pay from a device's page or
 * Collections. Owners and admins only (the API refuses staff).
 */
export function MpesaExpressCard() {
  return (
    <SettingsFormCard
      title="M-Pesa Express"
      icon={<IconDeviceMobileDollar size={20} />}
      description={
        <>
          Ask a customer to pay from Kidogo: their phone shows M-Pesa&apos;s prompt for the amount, to your paybill, with the device&apos;s serial
          number as the account. They enter their PIN and the payment is applied like any other.
        </>
      }
      query={useMpesaExpressSettings()}
      loadFailed="Failed to load M-Pesa Express settings"
    >
      {(data) => <MpesaExpressForm key={data.updated_at ?? 'new'} settings={data} />}
    </SettingsFormCard>
  );
}
