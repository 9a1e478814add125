import { Button, Center, Group, Loader, Modal, NumberInput, Select, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { ErrorAlert } from '@/components/ui/error-alert';
import { errorMessage } from '@/lib/api-client';
import { toast } from '@/lib/notify';
import { useInvoiceSettings, useUpdateInvoiceSettings, type InvoiceSettingsView } from '../api/invoice-settings';
import type { GlobalInvoiceSettings } from '../api/types';

export const SETTINGS_SAVED = 'Invoice settings updated successfully';
/** The Invoices screen offers USD, KES and MZN (spec §3). */
export const SCREEN_CURRENCIES = ['USD', 'KES', 'MZN'];

/** The offered currencies, plus the saved one when it is another (the console offers EUR and GBP). */
const currencyChoices = (offered: readonly string[], saved: string | null | undefined) =>
  saved && !offered.includes(saved) ? [...offered, saved] : [...offered];

/**
 * Invoice Settings, saved for real: a super admin edits the platform's
 * defaults (tax rate, currency, numbering prefix, payment terms); an owner
 * edits the billing preferences of their organization.
 */
export function InvoiceSettingsModal({ opened, onClose, admin }: { opened: boolean; onClose: () => void; admin: boolean }) {
  const settings = useInvoiceSettings(admin, opened);
  return (
    <Modal opened={opened} onClose={onClose} title="Invoice Settings" size="lg" centered>
      {settings.isPending ? (
        <Center py="lg" role="status" aria-label="Loading">
          <Loader size="sm" />
        </Center>
      ) : settings.isError ? (
        <ErrorAlert message={errorMessage(settings.error, 'Failed to load invoice settings')} onRetry={() => void settings.refetch()} />
      ) : (
        // Not keyed by the data's age: a background refetch must not reset what the user typed or drop a save in flight.
        <SettingsForm view={settings.data} onClose={onClose} />
      )}
    </Modal>
  );
}

function SettingsForm({ view, onClose }: { view: InvoiceSettingsView; onClose: () => void }) {
  const save = useUpdateInvoiceSettings();
  const s = view.settings;
  const [currency, setCurrency] = useState<string | null>(s.default_currency || 'USD');
  const [terms, setTerms] = useState<number | string>(s.default_payment_terms ?? 30);
  const [taxRate, setTaxRate] = useState<number | string>(view.scope === 'global' ? view.settings.default_tax_rate : 0);
  const [prefix, setPrefix] = useState(view.scope === 'global' ? view.settings.invoice_prefix || 'INV' : '');
  const [billingName, setBillingName] = useState(view.scope === 'organization' ? (view.settings.billing_name ?? '') : '');
  const [billingDetails, setBillingDetails] = useState(view.scope === 'organization' ? (view.settings.billing_details ?? '') : '');
  const [prefixError, setPrefixError] = useState<string | null>(null);

  const termsValue = Math.max(0, Math.round(Number(terms) || 0));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const done = {
      onSuccess: () => {
        toast.success(SETTINGS_SAVED);
        onClose();
      },
    };
    if (view.scope === 'global') {
      if (!prefix.trim()) {
        setPrefixError('Invoice prefix is required');
        return;
      }
      const rate = Number(taxRate);
      save.mutate(
        {
          scope: 'global',
          changes: {
            default_tax_rate: Number.isFinite(rate) ? Math.min(Math.max(rate, 0), 100) : 0,
            default_currency: (currency ?? 'USD') as GlobalInvoiceSettings['default_currency'],
            invoice_prefix: prefix.trim(),
            default_payment_terms: termsValue,
          },
        },
        done,
      );
    } else {
      save.mutate(
        {
          scope: 'organization',
          changes: {
            default_currency: (currency ?? 'USD') as GlobalInvoiceSettings['default_currency'],
            default_payment_terms: termsValue,
            billing_name: billingName.trim() || null,
            billing_details: billingDetails.trim() || null,
          },
        },
        done,
      );
    }
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          {view.scope === 'global'
            ? 'Platform-wide defaults for every invoice.'
            : 'How invoices billed to your organization are made out.'}
        </Text>
        {view.scope === 'global' ? (
          <Group grow align="flex-start" wrap="wrap">
            <NumberInput
              label="Default Tax Rate (%)"
              min={0}
              max={100}
              step={0.01}
              decimalScale={2}
              allowNegative={false}
              clampBehavior="strict"
              value={taxRate}
              onChange={setTaxRate}
            />
            <TextInput
              label="Invoice Prefix"
              withAsterisk
              value={prefix}
              onChange={(e) => {
                setPrefix(e.currentTarget.value);
                setPrefixError(null);
              }}
              error={prefixError}
            />
          </Group>
        ) : null}
        <Group grow align="flex-start" wrap="wrap">
          <Select label="Default Currency" data={currencyChoices(SCREEN_CURRENCIES, s.default_currency)} value={currency} onChange={setCurrency} allowDeselect={false} />
          <NumberInput
            label="Default Payment Terms (days)"
            min={0}
            max={365}
            step={1}
            allowDecimal={false}
            allowNegative={false}
            value={terms}
            onChange={setTerms}
          />
        </Group>
        {view.scope === 'organization' ? (
          <>
            <TextInput label="Billing Name" value={billingName} onChange={(e) => setBillingName(e.currentTarget.value)} />
            <Textarea
              label="Billing Details"
              description="Address, tax number and contact printed on your invoices"
              rows={3}
              value={billingDetails}
              onChange={(e) => setBillingDetails(e.currentTarget.value)}
            />
          </>
        ) : null}
        {save.isError ? <ErrorAlert title="Failed to save invoice settings" message={errorMessage(save.error, 'Failed to save invoice settings')} /> : null}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={save.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={save.isPending}>
            Save Settings
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
