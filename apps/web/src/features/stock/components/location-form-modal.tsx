import { Button, Group, Modal, Stack, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { ErrorAlert } from '@/components/ui/error-alert';
import { apiFieldErrors, errorMessage } from '@/lib/api-client';
import { toast } from '@/lib/notify';
import { labelledFieldErrors } from '@/lib/validation';
import { useCreateStockLocation, useUpdateStockLocation } from '../api/save-stock-location';
import type { StockLocation } from '../api/types';

export const LOCATION_TEXTS = {
  nameRequired: 'Name is required',
  addFailed: 'Failed to add the stock location',
  saveFailed: 'Failed to save the stock location',
} as const;

const LABELS = { name: 'Name', description: 'Description' };

interface Values {
  name: string;
  description: string;
}

/**
 * Add Location, or Edit Location when `location` is given: its name (unique
 * in the organization) and what it is. The API's refusal (a name taken)
 * stays shown in the dialog.
 */
export function LocationFormModal({ opened, location, onClose }: { opened: boolean; location: StockLocation | null; onClose: () => void }) {
  const create = useCreateStockLocation();
  const update = useUpdateStockLocation();
  const pending = create.isPending || update.isPending;
  const close = () => {
    if (pending) return;
    create.reset();
    update.reset();
    onClose();
  };
  return (
    <Modal opened={opened} onClose={close} title={location ? `Edit ${location.name}` : 'Add Location'} centered>
      {opened ? (
        <LocationForm
          key={location?.location_id ?? 'new'}
          location={location}
          pending={pending}
          onCancel={close}
          onSubmit={(values, refused) => {
            const description = values.description.trim() || null;
            if (location) {
              update.mutate(
                { locationId: location.location_id, changes: { name: values.name.trim(), description } },
                {
                  onSuccess: (reply) => {
                    toast.success(reply?.message || 'Stock location saved');
                    update.reset();
                    onClose();
                  },
                  onError: (e) => refused(e, LOCATION_TEXTS.saveFailed),
                },
              );
            } else {
              create.mutate(
                { name: values.name.trim(), ...(description ? { description } : {}) },
                {
                  onSuccess: (reply) => {
                    toast.success(reply?.message || `Stock location ${values.name.trim()} added`);
                    create.reset();
                    onClose();
                  },
                  onError: (e) => refused(e, LOCATION_TEXTS.addFailed),
                },
              );
            }
          }}
        />
      ) : null}
    </Modal>
  );
}

function LocationForm({
  location,
  pending,
  onCancel,
  onSubmit,
}: {
  location: StockLocation | null;
  pending: boolean;
  onCancel: () => void;
  onSubmit: (values: Values, refused: (error: unknown, fallback: string) => void) => void;
}) {
  const [refusal, setRefusal] = useState<{ title: string; message: string } | null>(null);
  const form = useForm<Values>({
    initialValues: { name: location?.name ?? '', description: location?.description ?? '' },
    validate: { name: (v) => (v.trim() ? null : LOCATION_TEXTS.nameRequired) },
    onValuesChange: () => setRefusal(null),
  });
  // A field the API names goes under its input; anything else (a name taken) in the box.
  const refused = (error: unknown, fallback: string) => {
    const fields = labelledFieldErrors(apiFieldErrors(error), LABELS) as Record<string, string>;
    form.setErrors(fields);
    setRefusal(Object.keys(fields).length ? null : { title: fallback, message: errorMessage(error, fallback) });
  };
  return (
    <form onSubmit={form.onSubmit((values) => onSubmit(values, refused))} noValidate>
      <Stack gap="md">
        <TextInput
          label="Name"
          placeholder="e.g. Kisumu Shop"
          description="A warehouse, a shop or a field agent: where devices are kept before they are given out."
          withAsterisk
          maxLength={100}
          data-autofocus
          {...form.getInputProps('name')}
        />
        <Textarea
          label="Description"
          placeholder="e.g. Oginga Odinga Street, next to the bus park"
          autosize
          minRows={2}
          maxLength={300}
          {...form.getInputProps('description')}
        />
        {refusal ? <ErrorAlert title={refusal.title} message={refusal.message} /> : null}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel} disabled={pending}>
            Cancel
          </Button>
          <Button type="submit" loading={pending}>
            {location ? 'Save Changes' : 'Add Location'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
