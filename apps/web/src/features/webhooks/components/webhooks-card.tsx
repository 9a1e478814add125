import { ActionIcon, Badge, Button, Card, Group, Menu, Stack, Text, Title, Tooltip } from '@mantine/core';
import {
  IconDots,
  IconEdit,
  IconKey,
  IconList,
  IconPlayerPause,
  IconPlayerPlay,
  IconPlus,
  IconSend,
  IconTrash,
  IconWebhook,
} from '@tabler/icons-react';
import type { WebhookEndpoint, WebhookWithSecret } from '@kidogo/contracts';
import { useState } from 'react';
import { ConfirmModal } from '@/components/ui/confirm-modal';
import { DataTable, type Column } from '@/components/ui/data-table';
import { formatDate } from '@/components/ui/date-text';
import { errorMessage } from '@/lib/api-client';
import { toast } from '@/lib/notify';
import { useDeleteWebhook, useRotateWebhookSecret, useTestWebhook, useUpdateWebhook, useWebhooks } from '../api/webhooks';
import { WebhookDeliveriesDrawer } from './webhook-deliveries-drawer';
import { WebhookFormModal } from './webhook-form-modal';
import { WebhookSecretModal } from './webhook-secret-modal';

export const DELETE_FAILED = 'Failed to delete the endpoint';
export const ROTATE_FAILED = 'Failed to rotate the secret';

/** The latest attempt in words: "Delivered 25 Nov, 10:42 (HTTP 200)" or "Failed …: answered HTTP 500". */
function lastAttempt(e: WebhookEndpoint): { text: string; color: string } {
  const a = e.last_attempt;
  if (!a) return { text: 'Nothing sent yet', color: 'dimmed' };
  const when = formatDate(a.at, true);
  return a.ok
    ? { text: `Delivered ${when} (HTTP ${a.response_status})`, color: 'dimmed' }
    : { text: `Failed ${when}: ${a.error ?? 'no answer'}`, color: 'red' };
}

/**
 * Event webhooks for the organization's own systems (accounting, CRM, a
 * customer app): the endpoints, what each is sent and how its deliveries go;
 * add, edit, pause, send a test event, rotate the secret, delete, and each
 * endpoint's delivery log.
 */
export function WebhooksCard() {
  const hooks = useWebhooks();
  const update = useUpdateWebhook();
  const remove = useDeleteWebhook();
  const rotate = useRotateWebhookSecret();
  const test = useTestWebhook();
  const [form, setForm] = useState<{ endpoint: WebhookEndpoint | null } | null>(null);
  const [secret, setSecret] = useState<{ endpoint: WebhookWithSecret; rotated: boolean } | null>(null);
  const [deleting, setDeleting] = useState<WebhookEndpoint | null>(null);
  const [rotating, setRotating] = useState<WebhookEndpoint | null>(null);
  const [viewing, setViewing] = useState<WebhookEndpoint | null>(null);
  const endpoints = hooks.data?.data;

  const sendTest = (e: WebhookEndpoint) =>
    test.mutate(e.id, {
      onSuccess: (d) =>
        d.status === 'delivered'
          ? toast.success(`Test event delivered to ${e.url}: HTTP ${d.response_status} in ${d.duration_ms} ms`)
          : toast.error(`Test event not delivered: ${d.error ?? 'no answer'}`),
      onError: (err) => toast.error(errorMessage(err, 'Failed to send the test event')),
    });
  const setActive = (e: WebhookEndpoint, is_active: boolean) =>
    update.mutate(
      { id: e.id, is_active },
      {
        onSuccess: () => toast.success(is_active ? `Resumed: ${e.url} gets events again` : `Paused: ${e.url} gets no new events`),
        onError: (err) => toast.error(errorMessage(err, 'Failed to change the endpoint')),
      },
    );

  const columns: Column<WebhookEndpoint>[] = [
    {
      key: 'endpoint',
      header: 'Endpoint',
      render: (e) => (
        <div style={{ minWidth: 0, maxWidth: 360 }}>
          <Text size="sm" ff="monospace" style={{ wordBreak: 'break-all' }}>
            {e.url}
          </Text>
          {e.description ? (
            <Text size="xs" c="dimmed">
              {e.description}
            </Text>
          ) : null}
        </div>
      ),
    },
    {
      key: 'events',
      header: 'Events',
      render: (e) => (
        <Group gap={4} maw={260}>
          {e.events.map((ev) => (
            <Badge key={ev} variant="default" size="sm" tt="none" ff="monospace">
              {ev}
            </Badge>
          ))}
        </Group>
      ),
    },
    {
      key: 'status',
      header: 'Status',
      render: (e) => {
        const last = lastAttempt(e);
        return (
          <Stack gap={2}>
            <Group gap={6}>
              <Badge color={e.is_active ? 'green' : 'gray'} variant="light" size="sm">
                {e.is_active ? 'Active' : 'Paused'}
              </Badge>
              {e.pending ? (
                <Badge color="yellow" variant="light" size="sm">
                  {e.pending} waiting
                </Badge>
              ) : null}
              {e.failed_7d ? (
                <Badge color="red" variant="light" size="sm">
                  {e.failed_7d} failed (7 days)
                </Badge>
              ) : null}
            </Group>
            <Text size="xs" c={last.color} maw={280}>
              {last.text}
            </Text>
          </Stack>
        );
      },
    },
    {
      key: 'actions',
      header: 'Actions',
      align: 'right',
      render: (e) => (
        <Group gap={4} justify="flex-end" wrap="nowrap">
          <Tooltip label="Send a test event">
            <ActionIcon variant="subtle" aria-label={`Send a test event to ${e.url}`} loading={test.isPending && test.variables === e.id} onClick={() => sendTest(e)}>
              <IconSend size={16} />
            </ActionIcon>
          </Tooltip>
          <Tooltip label="Deliveries">
            <ActionIcon variant="subtle" aria-label={`Deliveries to ${e.url}`} onClick={() => setViewing(e)}>
              <IconList size={16} />
            </ActionIcon>
          </Tooltip>
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              <ActionIcon variant="subtle" aria-label={`More for ${e.url}`}>
                <IconDots size={16} />
              </ActionIcon>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Item leftSection={<IconEdit size={14} />} onClick={() => setForm({ endpoint: e })}>
                Edit
              </Menu.Item>
              {e.is_active ? (
                <Menu.Item leftSection={<IconPlayerPause size={14} />} onClick={() => setActive(e, false)}>
                  Pause
                </Menu.Item>
              ) : (
                <Menu.Item leftSection={<IconPlayerPlay size={14} />} onClick={() => setActive(e, true)}>
                  Resume
                </Menu.Item>
              )}
              <Menu.Item leftSection={<IconKey size={14} />} onClick={() => setRotating(e)}>
                Rotate Secret
              </Menu.Item>
              <Menu.Divider />
              <Menu.Item color="red" leftSection={<IconTrash size={14} />} onClick={() => setDeleting(e)}>
                Delete
              </Menu.Item>
            </Menu.Dropdown>
          </Menu>
        </Group>
      ),
    },
  ];

  return (
    <Card padding="lg" component="section" aria-label="Webhooks">
      <Group justify="space-between" align="flex-start" mb="md" gap="sm">
        <div>
          <Group gap="sm" mb={4}>
            <IconWebhook size={20} />
            <Title order={4}>Webhooks</Title>
          </Group>
          <Text size="sm" c="dimmed" maw={720}>
            Tell your own systems (accounting, a CRM, a customer app) the moment something happens: a payment applied or held, a code
            issued, a device repossessed. Each event is a signed POST, sent once its change is saved and retried for a day if your server
            is down.
          </Text>
        </div>
        <Button leftSection={<IconPlus size={16} />} onClick={() => setForm({ endpoint: null })}>
          Add Endpoint
        </Button>
      </Group>
      <DataTable
        caption="Webhook endpoints"
        columns={columns}
        rows={endpoints}
        rowKey={(e) => e.id}
        minWidth={860}
        loading={hooks.isPending}
        error={hooks.isError ? errorMessage(hooks.error, 'Failed to load the webhooks') : null}
        onRetry={() => void hooks.refetch()}
        emptyText="No endpoints yet"
        emptyHint="Add one to send payments and tokens to your own systems as they happen."
      />

      {form ? (
        <WebhookFormModal
          key={form.endpoint?.id ?? 'new'}
          endpoint={form.endpoint}
          opened
          onClose={() => setForm(null)}
          onCreated={(created) => {
            setForm(null);
            setSecret({ endpoint: created, rotated: false });
          }}
        />
      ) : null}
      <WebhookSecretModal endpoint={secret?.endpoint ?? null} rotated={secret?.rotated ?? false} onClose={() => setSecret(null)} />
      <WebhookDeliveriesDrawer endpoint={viewing} onClose={() => setViewing(null)} />
      <ConfirmModal
        opened={rotating !== null}
        onClose={() => {
          rotate.reset();
          setRotating(null);
        }}
        onConfirm={() =>
          rotating &&
          rotate.mutate(rotating.id, {
            onSuccess: (r) => {
              setRotating(null);
              setSecret({ endpoint: r, rotated: true });
            },
          })
        }
        title="Rotate the signing secret?"
        message={`A new secret replaces the current one at once: ${rotating?.url ?? 'the endpoint'} must check the new one, or it will refuse every event.`}
        confirmLabel="Rotate Secret"
        loading={rotate.isPending}
        error={rotate.isError ? errorMessage(rotate.error, ROTATE_FAILED) : null}
        errorTitle={ROTATE_FAILED}
      />
      <ConfirmModal
        opened={deleting !== null}
        onClose={() => {
          remove.reset();
          setDeleting(null);
        }}
        onConfirm={() =>
          deleting &&
          remove.mutate(deleting.id, {
            onSuccess: () => {
              toast.success(`Endpoint ${deleting.url} deleted`);
              setDeleting(null);
            },
          })
        }
        title="Delete endpoint?"
        message={`Delete ${deleting?.url ?? 'this endpoint'}? It gets no more events, and its delivery log is deleted with it.`}
        confirmLabel="Delete Endpoint"
        loading={remove.isPending}
        error={remove.isError ? errorMessage(remove.error, DELETE_FAILED) : null}
        errorTitle={DELETE_FAILED}
      />
    </Card>
  );
}
