import { Autocomplete, Badge, Button, Card, Group, Modal, Stack, Switch, Text, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { ConfirmModal } from '@/components/ui/confirm-modal';
import { EditDeleteActions } from '@/components/ui/row-actions';
import { DataTable, type Column } from '@/components/ui/data-table';
import { formatDate } from '@/components/ui/date-text';
import { ErrorAlert } from '@/components/ui/error-alert';
import { errorMessage } from '@/lib/api-client';
import { useDeletePaymentProvider, usePaymentProviders, useSavePaymentProvider } from '../api/payment-providers';
import type { PaymentProvider } from '../api/types';
import { useConsoleFeedback } from './console-feedback';
import { KeyValueEditor, kvRow, objectFromRows, rowsFromObject, SecretSummary, type KeyValueRow } from './key-value-editor';
import { OrganizationSelect } from './organization-select';

/** The fields each known gateway needs; the SMS outbox reads these. */
const PRESETS: Record<string, string[]> = {
  africastalking: ['username', 'api_key', 'sender_id', 'base_url'],
  sms_webhook: ['url', 'secret'],
};

export function PaymentProvidersTab() {
  const feedback = useConsoleFeedback();
  const [org, setOrg] = useState<string | null>(null);
  const providers = usePaymentProviders(org ?? '');
  const remove = useDeletePaymentProvider();
  const [editing, setEditing] = useState<PaymentProvider | 'new' | null>(null);
  const [deleting, setDeleting] = useState<PaymentProvider | null>(null);

  const columns: Column<PaymentProvider>[] = [
    { key: 'provider', header: 'Provider', render: (p) => <b>{p.provider}</b> },
    { key: 'org', header: 'Organization', render: (p) => p.organization_id },
    { key: 'config', header: 'Configuration', render: (p) => <SecretSummary value={p.config} /> },
    {
      key: 'active',
      header: 'Status',
      render: (p) => (
        <Badge miw="max-content" color={p.is_active ? 'green' : 'gray'} variant="light" radius="sm">
          {p.is_active ? 'Active' : 'Inactive'}
        </Badge>
      ),
    },
    { key: 'updated', header: 'Updated', render: (p) => formatDate(p.updated_at, true) },
    {
      key: 'actions',
      header: 'Actions',
      align: 'right',
      render: (p) => <EditDeleteActions name={`${p.provider} of ${p.organization_id}`} onEdit={() => setEditing(p)} onDelete={() => setDeleting(p)} />,
    },
  ];

  return (
    <Stack gap="lg">
      <Group justify="space-between">
        <div>
          <Title order={3}>Payment Providers</Title>
          <Text size="sm" c="dimmed">
            Gateways each organization uses, e.g. Africa&apos;s Talking or an SMS webhook for the reply messages. Secrets are shown masked.
          </Text>
        </div>
        <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')}>
          Add Provider
        </Button>
      </Group>
      <Card padding="md" radius="md">
        <OrganizationSelect aria-label="Filter by organization" placeholder="All organizations" clearable value={org} onChange={setOrg} maw={320} mb="md" />
        <DataTable
          caption="Payment providers"
          columns={columns}
          rows={providers.data}
          rowKey={(p) => p.id}
          loading={providers.isPending}
          error={providers.isError ? errorMessage(providers.error, 'Failed to load payment providers') : null}
          onRetry={() => void providers.refetch()}
          emptyText="No payment providers configured"
          minWidth={860}
        />
      </Card>
      <ProviderModal target={editing} onClose={() => setEditing(null)} />
      <ConfirmModal
        opened={deleting !== null}
        onClose={() => !remove.isPending && setDeleting(null)}
        title="Delete Payment Provider"
        message={`Delete the ${deleting?.provider ?? ''} provider of ${deleting?.organization_id ?? ''}? Its stored secrets are removed.`}
        loading={remove.isPending}
        onConfirm={() =>
          deleting &&
          remove.mutate(deleting.id, {
            onSuccess: () => {
              feedback.success('Payment provider deleted successfully');
              setDeleting(null);
            },
            onError: (e) => {
              feedback.error(errorMessage(e, 'Failed to delete payment provider'));
              setDeleting(null);
            },
          })
        }
      />
    </Stack>
  );
}

function ProviderModal({ target, onClose }: { target: PaymentProvider | 'new' | null; onClose: () => void }) {
  return (
    <Modal opened={target !== null} onClose={onClose} title={target === 'new' ? 'Add Payment Provider' : 'Edit Payment Provider'} size="lg" centered>
      {target ? <ProviderForm key={target === 'new' ? 'new' : target.id} target={target} onClose={onClose} /> : null}
    </Modal>
  );
}

function ProviderForm({ target, onClose }: { target: PaymentProvider | 'new'; onClose: () => void }) {
  const feedback = useConsoleFeedback();
  const save = useSavePaymentProvider();
  const existing = target === 'new' ? null : target;
  const [provider, setProvider] = useState(existing?.provider ?? '');
  const [org, setOrg] = useState<string | null>(existing?.organization_id ?? null);
  const [rows, setRows] = useState<KeyValueRow[]>(rowsFromObject(existing?.config));
  const [active, setActive] = useState(existing?.is_active ?? true);
  const [errors, setErrors] = useState<{ provider?: string; org?: string }>({});

  const choose = (name: string) => {
    setProvider(name);
    // A fresh form gets the fields the chosen gateway needs.
    if (!existing && rows.every((r) => !r.key.trim() && !r.value.trim()) && PRESETS[name]) setRows(PRESETS[name].map((k) => kvRow(k)));
  };

  const submit = () => {
    const next = { provider: provider.trim() ? undefined : 'Provider is required', org: org ? undefined : 'Organization is required' };
    setErrors(next);
    if (next.provider || next.org || !org) return;
    save.mutate(
      { id: existing?.id ?? null, input: { provider: provider.trim(), organization_id: org, config: objectFromRows(rows), is_active: active } },
      {
        onSuccess: () => {
          feedback.success(existing ? 'Payment provider updated successfully' : 'Payment provider created successfully');
          onClose();
        },
        onError: (e) => feedback.error(errorMessage(e, 'Failed to save payment provider')),
      },
    );
  };

  return (
    <Stack gap="md">
      <Autocomplete
        label="Provider"
        withAsterisk
        data={Object.keys(PRESETS)}
        value={provider}
        onChange={choose}
        error={errors.provider}
        placeholder="africastalking, sms_webhook, ..."
      />
      <OrganizationSelect label="Organization" withAsterisk value={org} onChange={setOrg} disabled={existing !== null} error={errors.org} />
      <KeyValueEditor
        label="Configuration"
        rows={rows}
        onChange={setRows}
        hint={existing ? 'Secrets show masked; leave a masked value as it is to keep it.' : undefined}
      />
      <Switch label="Active" checked={active} onChange={(e) => setActive(e.currentTarget.checked)} />
      {save.isError ? <ErrorAlert message={errorMessage(save.error, 'Failed to save payment provider')} /> : null}
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={onClose} disabled={save.isPending}>
          Cancel
        </Button>
        <Button onClick={submit} loading={save.isPending}>
          {existing ? 'Save Changes' : 'Add Provider'}
        </Button>
      </Group>
    </Stack>
  );
}
