import { Button, Checkbox, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { WEBHOOK_EVENTS, WEBHOOK_EVENT_TYPES, ZWebhookCreateSchema, type WebhookEndpoint, type WebhookEventType, type WebhookWithSecret } from '@kidogo/contracts';
import { useState } from 'react';
import { ErrorAlert } from '@/components/ui/error-alert';
import { apiFieldErrors, errorMessage } from '@/lib/api-client';
import { labelledFieldErrors, schemaErrors } from '@/lib/validation';
import { useCreateWebhook, useUpdateWebhook } from '../api/webhooks';

const LABELS = { url: 'Endpoint URL', description: 'Description', events: 'Events' };

interface Values {
  url: string;
  description: string;
  events: WebhookEventType[];
}

/**
 * Add or edit an endpoint: its address, a note of what it is, and the events
 * it is sent (checked against the API's own schema before sending). A new
 * endpoint's secret comes back in `onCreated`, to be shown once.
 */
export function WebhookFormModal({
  endpoint,
  opened,
  onClose,
  onCreated,
}: {
  /** The endpoint to edit; null to add one. */
  endpoint: WebhookEndpoint | null;
  opened: boolean;
  onClose: () => void;
  onCreated: (created: WebhookWithSecret) => void;
}) {
  const create = useCreateWebhook();
  const update = useUpdateWebhook();
  const pending = create.isPending || update.isPending;
  const [refusal, setRefusal] = useState<string | null>(null);
  const form = useForm<Values>({
    initialValues: {
      url: endpoint?.url ?? '',
      description: endpoint?.description ?? '',
      events: endpoint?.events ?? ['payment.applied', 'payment.held'],
    },
    validate: (v) => schemaErrors(ZWebhookCreateSchema, v, LABELS),
    onValuesChange: () => setRefusal(null),
  });
  const close = () => {
    if (pending) return;
    setRefusal(null);
    onClose();
  };
  const refused = (error: unknown, fallback: string) => {
    const fields = labelledFieldErrors(apiFieldErrors(error), LABELS) as Record<string, string>;
    form.setErrors(fields);
    setRefusal(Object.keys(fields).length ? null : errorMessage(error, fallback));
  };
  const submit = form.onSubmit((v) => {
    const body = { url: v.url.trim(), description: v.description.trim() || null, events: v.events };
    if (endpoint) {
      update.mutate({ id: endpoint.id, ...body }, { onSuccess: () => onClose(), onError: (e) => refused(e, 'Failed to save the endpoint') });
    } else {
      create.mutate(body, { onSuccess: (created) => onCreated(created), onError: (e) => refused(e, 'Failed to add the endpoint') });
    }
  });

  return (
    <Modal opened={opened} onClose={close} title={endpoint ? 'Edit Endpoint' : 'Add Endpoint'} size="lg">
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <TextInput
            label="Endpoint URL"
            placeholder="https://erp.example.com/kidogo/events"
            description="Kidogo POSTs each event here as JSON, signed with the endpoint's secret."
            withAsterisk
            {...form.getInputProps('url')}
          />
          <TextInput label="Description" placeholder="What receives it, e.g. Accounting (ERPNext)" {...form.getInputProps('description')} />
          <Checkbox.Group label="Events" withAsterisk {...form.getInputProps('events')}>
            <Stack gap="xs" mt="xs">
              {WEBHOOK_EVENT_TYPES.map((type) => (
                <Checkbox
                  key={type}
                  value={type}
                  label={<Text size="sm" ff="monospace">{type}</Text>}
                  description={WEBHOOK_EVENTS[type]}
                />
              ))}
            </Stack>
          </Checkbox.Group>
          {refusal ? <ErrorAlert message={refusal} /> : null}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close} disabled={pending}>
              Cancel
            </Button>
            <Button type="submit" loading={pending}>
              {endpoint ? 'Save Endpoint' : 'Add Endpoint'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
