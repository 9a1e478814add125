import { Alert, Button, Group, NativeSelect, Paper, Stack, Text } from '@mantine/core';
import { IconPhone } from '@tabler/icons-react';
import { useState } from 'react';
import { ErrorAlert } from '@/components/ui/error-alert';
import { apiFieldErrors, errorMessage } from '@/lib/api-client';
import { toast } from '@/lib/notify';
import { SettingsFormCard } from './settings-form-card';
import { usePhoneCountry } from '../api/get-phone-country';
import { useUpdatePhoneCountry } from '../api/update-phone-country';
import { PHONE_COUNTRIES, type PhoneCountry, type PhoneCountryCode, type PhoneCountryUpdate } from '../api/types';

export const PHONE_COUNTRY_SAVE_FAILED = 'Failed to save the phone country';

const OPTIONS = PHONE_COUNTRIES.map((c) => ({ value: c.code, label: `${c.country} (+${c.code})` }));
const countryName = (code: string) => PHONE_COUNTRIES.find((c) => c.code === code)?.country ?? `+${code}`;

/** "Phone numbers are read as Uganda's: 1,204 customers' numbers read again." */
export function savedText(reply: PhoneCountryUpdate): string {
  const n = reply.customers_updated;
  const read = `Phone numbers are read as ${reply.country}'s`;
  if (n === 0) return read;
  const lost = reply.unreadable_numbers ? `, ${reply.unreadable_numbers.toLocaleString('en')} not readable as a phone` : '';
  return `${read}: ${n.toLocaleString('en')} customer${n === 1 ? "'s number" : "s' numbers"} read again${lost}`;
}

/** "3 customers have a number that reads as no phone…", or nothing when every number can be read. */
export function unreadableText(count: number): string | null {
  if (count === 0) return null;
  const who = count === 1 ? '1 customer has a number' : `${count.toLocaleString('en')} customers have a number`;
  return `${who} that reads as no phone: payments and texts from their phones cannot find them, and no code can be texted to them. Correct the number on the customer.`;
}

function PhoneCountryForm({ setting }: { setting: PhoneCountry }) {
  const [code, setCode] = useState<PhoneCountryCode>(setting.phone_country_code);
  const [error, setError] = useState<string>('');
  const save = useUpdatePhoneCountry();
  const changing = code !== setting.phone_country_code;

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (save.isPending) return;
    save.mutate(
      { phone_country_code: code },
      {
        onSuccess: (reply) => {
          setError('');
          toast.success(savedText(reply));
        },
        onError: (e) => setError(apiFieldErrors(e).phone_country_code ?? ''),
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Phone country">
      <Stack gap="md">
        {save.isError ? <ErrorAlert title={PHONE_COUNTRY_SAVE_FAILED} message={errorMessage(save.error, PHONE_COUNTRY_SAVE_FAILED)} /> : null}
        <NativeSelect
          label="Country"
          description="Where your customers' phones are registered"
          data={OPTIONS}
          value={code}
          onChange={(e) => {
            setCode(e.currentTarget.value as PhoneCountryCode);
            setError('');
          }}
          error={error || undefined}
        />
        {/* The saved country's example; while another is chosen, what saving it will do instead. */}
        {changing ? null : (
          <Paper withBorder p="sm" bg="var(--mantine-color-default-hover)">
            <Text size="sm" data-testid="phone-country-example">
              {setting.example.written} is read as {setting.example.read_as}
            </Text>
          </Paper>
        )}
        {unreadableText(setting.unreadable_numbers) ? (
          <Text size="sm" c="orange" data-testid="phone-country-unreadable">
            {unreadableText(setting.unreadable_numbers)}
          </Text>
        ) : null}
        {changing ? (
          <Alert color="yellow" variant="light" title={`Read numbers as ${countryName(code)}'s?`}>
            Saving reads every customer&apos;s number that has no country code again, as a number of {countryName(code)} (+{code}): payments
            and texts from those phones find them, and their texts go there. Numbers written with a country code (+254…) stay as they are.
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button type="submit" loading={save.isPending} disabled={!changing}>
            Save Country
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * The organization's phone country: a customer's number written without a
 * country code (0712 345 678) is read as a number of it, to match payments
 * and texts from the phone, to search by phone and to text the customer.
 */
export function PhoneCountryCard() {
  return (
    <SettingsFormCard
      title="Phone Numbers"
      icon={<IconPhone size={20} />}
      description="Numbers are often written without a country code (0712 345 678). Kidogo reads them as numbers of your country: to find who paid or texted, to search customers by phone, and to text them."
      query={usePhoneCountry()}
      loadFailed="Failed to load the phone country"
    >
      {(data) => <PhoneCountryForm key={data.phone_country_code} setting={data} />}
    </SettingsFormCard>
  );
}
