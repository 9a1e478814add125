import { Button, Group, Modal, Select, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { PHONE_COUNTRIES, type AppType, type PhoneCountryCode } from '@kidogo/contracts';
import { ErrorAlert } from '@/components/ui/error-alert';
import { errorMessage } from '@/lib/api-client';
import { useCreateOrganization } from '../api/create-organization';
import { useConsoleFeedback } from './console-feedback';

const APP_LABELS: Record<AppType, string> = { kidogo: 'Kidogo', amped: 'Amped', generic_oem: 'Generic OEM' };
const APP_TYPES = Object.keys(APP_LABELS) as AppType[];
const COUNTRIES = PHONE_COUNTRIES.map((c) => ({ value: c.code, label: `${c.country} (+${c.code})` }));

interface Values {
  organization_id: string;
  external_key: string;
  name: string;
  app: AppType;
  phone_country_code: PhoneCountryCode;
}

/**
 * Add Organization: organization_id required; external key and name optional; app kidogo and the customers' phone
 * numbers Kenyan by default (its owners can change the country in Settings → Phone Numbers).
 */
export function AddOrganizationModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const feedback = useConsoleFeedback();
  const create = useCreateOrganization();
  const form = useForm<Values>({
    initialValues: { organization_id: '', external_key: '', name: '', app: 'kidogo', phone_country_code: '254' },
    validate: {
      organization_id: (v) => {
        const id = v.trim();
        if (!id) return 'Organization ID is required';
        return /^[a-z0-9][a-z0-9_-]{1,63}$/.test(id) ? null : 'Use 2 to 64 lower-case letters, digits, - or _';
      },
    },
  });
  const close = () => {
    if (create.isPending) return;
    form.reset();
    create.reset();
    onClose();
  };
  const submit = form.onSubmit((v) =>
    create.mutate(
      {
        organization_id: v.organization_id.trim(),
        external_key: v.external_key.trim() || null,
        name: v.name.trim() || null,
        app: v.app,
        phone_country_code: v.phone_country_code,
      },
      {
        onSuccess: () => {
          feedback.success('Organization created successfully');
          form.reset();
          create.reset();
          onClose();
        },
        onError: (e) => feedback.error(errorMessage(e, 'Failed to create organization')),
      },
    ),
  );
  return (
    <Modal opened={opened} onClose={close} title="Add Organization" centered>
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <TextInput
            label="Organization ID"
            placeholder="e.g. sunlight-kenya"
            withAsterisk
            data-autofocus
            {...form.getInputProps('organization_id')}
          />
          <TextInput label="Name" placeholder="e.g. Sunlight Kenya Ltd" {...form.getInputProps('name')} />
          <TextInput label="External Key" description="Optional: the organization's key in another system" {...form.getInputProps('external_key')} />
          <Select
            label="App"
            allowDeselect={false}
            data={APP_TYPES.map((a) => ({ value: a, label: APP_LABELS[a] }))}
            {...form.getInputProps('app')}
          />
          <Select
            label="Phone Numbers"
            description="The country of its customers' phones: numbers without a country code are read as its"
            allowDeselect={false}
            data={COUNTRIES}
            {...form.getInputProps('phone_country_code')}
          />
          {create.isError ? <ErrorAlert message={errorMessage(create.error, 'Failed to create organization')} /> : null}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close} disabled={create.isPending}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending}>
              Add Organization
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
