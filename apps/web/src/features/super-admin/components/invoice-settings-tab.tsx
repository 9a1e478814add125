import { Button, Card, Center, Group, Loader, NumberInput, Select, SimpleGrid, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { ErrorAlert } from '@/components/ui/error-alert';
import { errorMessage } from '@/lib/api-client';
import { useInvoiceSettings, useUpdateInvoiceSettings } from '../api/invoice-settings';
import type { GlobalInvoiceSettings } from '../api/types';
import { useConsoleFeedback } from './console-feedback';

/** The console offers USD, EUR, GBP and MZN (spec §3). */
export const CONSOLE_CURRENCIES = ['USD', 'EUR', 'GBP', 'MZN'];

/** The offered currencies, plus the saved one when it is another (the Invoices screen offers KES). */
const currencyChoices = (saved: string | null | undefined) =>
  saved && !CONSOLE_CURRENCIES.includes(saved) ? [...CONSOLE_CURRENCIES, saved] : CONSOLE_CURRENCIES;

/** Tax rate: a number from 0 to 100; anything unparsable becomes 0 (spec §5). */
export function parseTaxRate(v: number | string): number {
  const n = typeof v === 'number' ? v : Number.parseFloat(String(v));
  if (!Number.isFinite(n)) return 0;
  return Math.round(Math.min(Math.max(n, 0), 100) * 100) / 100;
}

/** Global Invoice Settings: tax rate, currency, numbering prefix and the HTML template. */
export function InvoiceSettingsTab() {
  const settings = useInvoiceSettings();
  if (settings.isPending) {
    return (
      <Center py="xl" role="status" aria-label="Loading">
        <Loader size="sm" />
      </Center>
    );
  }
  if (settings.isError) {
    return <ErrorAlert message={errorMessage(settings.error, 'Failed to load invoice settings')} onRetry={() => void settings.refetch()} />;
  }
  // Not keyed by the data's age: a background refetch must not reset what the user is typing.
  return <SettingsForm settings={settings.data} />;
}

function SettingsForm({ settings }: { settings: GlobalInvoiceSettings }) {
  const feedback = useConsoleFeedback();
  const save = useUpdateInvoiceSettings();
  const [taxRate, setTaxRate] = useState<number | string>(settings.default_tax_rate ?? 0);
  const [currency, setCurrency] = useState<string | null>(settings.default_currency || 'USD');
  const [prefix, setPrefix] = useState(settings.invoice_prefix || 'INV');
  const [template, setTemplate] = useState(settings.template_html ?? '');

  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate(
      {
        default_tax_rate: parseTaxRate(taxRate),
        default_currency: (currency ?? 'USD') as GlobalInvoiceSettings['default_currency'],
        invoice_prefix: prefix.trim() || 'INV',
        template_html: template.trim() ? template : null,
      },
      {
        onSuccess: () => feedback.success('Invoice settings updated successfully'),
        onError: (err) => feedback.error(errorMessage(err, 'Failed to update invoice settings')),
      },
    );
  };

  return (
    <Stack gap="lg">
      <Title order={3}>Global Invoice Settings</Title>
      <Card padding="lg" radius="md">
        <form onSubmit={submit} noValidate>
          <Stack gap="md">
            <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
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
              <Select label="Default Currency" data={currencyChoices(settings.default_currency)} value={currency} onChange={setCurrency} allowDeselect={false} />
              <TextInput
                label="Invoice Prefix"
                value={prefix}
                onChange={(e) => setPrefix(e.currentTarget.value)}
                description={`Invoice numbers read like ${prefix.trim() || 'INV'}-000001`}
                inputWrapperOrder={['label', 'input', 'description', 'error']}
              />
            </SimpleGrid>
            <Textarea
              label="Template HTML"
              description="Placeholders such as {{invoice_number}}, {{organization_name}}, {{line_items}}, {{amount}}, {{currency}}, {{due_date}} are filled in and escaped. Leave empty for the built-in template."
              rows={10}
              styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 13 } }}
              value={template}
              onChange={(e) => setTemplate(e.currentTarget.value)}
            />
            <Group justify="space-between">
              <Text size="xs" c="dimmed">
                Payment terms: {settings.default_payment_terms ?? 30} days
              </Text>
              <Button type="submit" disabled={save.isPending}>
                {save.isPending ? 'Saving...' : 'Save Settings'}
              </Button>
            </Group>
          </Stack>
        </form>
      </Card>
    </Stack>
  );
}
