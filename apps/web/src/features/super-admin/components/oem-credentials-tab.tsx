import { Button, Card, Group, Modal, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { ConfirmModal } from '@/components/ui/confirm-modal';
import { EditDeleteActions } from '@/components/ui/row-actions';
import { DataTable, type Column } from '@/components/ui/data-table';
import { formatDate } from '@/components/ui/date-text';
import { ErrorAlert } from '@/components/ui/error-alert';
import { errorMessage } from '@/lib/api-client';
import { useDeleteOemCredential, useOemCredentials, useSaveOemCredential } from '../api/oem-credentials';
import type { OemCredential } from '../api/types';
import { useConsoleFeedback } from './console-feedback';
import { KeyValueEditor, objectFromRows, rowsFromObject, SecretSummary, type KeyValueRow } from './key-value-editor';
import { OrganizationSelect } from './organization-select';

export function OemCredentialsTab() {
  const feedback = useConsoleFeedback();
  const [org, setOrg] = useState<string | null>(null);
  const credentials = useOemCredentials(org ?? '');
  const remove = useDeleteOemCredential();
  const [editing, setEditing] = useState<OemCredential | 'new' | null>(null);
  const [deleting, setDeleting] = useState<OemCredential | null>(null);

  const columns: Column<OemCredential>[] = [
    { key: 'oem', header: 'OEM', render: (c) => <b>{c.oem_name}</b> },
    { key: 'org', header: 'Organization', render: (c) => c.organization_id },
    { key: 'credentials', header: 'Credentials', render: (c) => <SecretSummary value={c.credentials} /> },
    { key: 'updated', header: 'Updated', render: (c) => formatDate(c.updated_at, true) },
    {
      key: 'actions',
      header: 'Actions',
      align: 'right',
      render: (c) => <EditDeleteActions name={`${c.oem_name} of ${c.organization_id}`} onEdit={() => setEditing(c)} onDelete={() => setDeleting(c)} />,
    },
  ];

  return (
    <Stack gap="lg">
      <Group justify="space-between">
        <div>
          <Title order={3}>OEM Credentials</Title>
          <Text size="sm" c="dimmed">
            Credentials for device makers&apos; platforms, per organization. Secrets are shown masked.
          </Text>
        </div>
        <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')}>
          Add Credentials
        </Button>
      </Group>
      <Card padding="md" radius="md">
        <OrganizationSelect aria-label="Filter by organization" placeholder="All organizations" clearable value={org} onChange={setOrg} maw={320} mb="md" />
        <DataTable
          caption="OEM credentials"
          columns={columns}
          rows={credentials.data}
          rowKey={(c) => c.id}
          loading={credentials.isPending}
          error={credentials.isError ? errorMessage(credentials.error, 'Failed to load OEM credentials') : null}
          onRetry={() => void credentials.refetch()}
          emptyText="No OEM credentials stored"
        />
      </Card>
      <Modal opened={editing !== null} onClose={() => setEditing(null)} title={editing === 'new' ? 'Add OEM Credentials' : 'Edit OEM Credentials'} size="lg" centered>
        {editing ? <CredentialForm key={editing === 'new' ? 'new' : editing.id} target={editing} onClose={() => setEditing(null)} /> : null}
      </Modal>
      <ConfirmModal
        opened={deleting !== null}
        onClose={() => !remove.isPending && setDeleting(null)}
        title="Delete OEM Credentials"
        message={`Delete the ${deleting?.oem_name ?? ''} credentials of ${deleting?.organization_id ?? ''}?`}
        loading={remove.isPending}
        onConfirm={() =>
          deleting &&
          remove.mutate(deleting.id, {
            onSuccess: () => {
              feedback.success('OEM credentials deleted successfully');
              setDeleting(null);
            },
            onError: (e) => {
              feedback.error(errorMessage(e, 'Failed to delete OEM credentials'));
              setDeleting(null);
            },
          })
        }
      />
    </Stack>
  );
}

function CredentialForm({ target, onClose }: { target: OemCredential | 'new'; onClose: () => void }) {
  const feedback = useConsoleFeedback();
  const save = useSaveOemCredential();
  const existing = target === 'new' ? null : target;
  const [oem, setOem] = useState(existing?.oem_name ?? '');
  const [org, setOrg] = useState<string | null>(existing?.organization_id ?? null);
  const [rows, setRows] = useState<KeyValueRow[]>(rowsFromObject(existing?.credentials));
  const [errors, setErrors] = useState<{ oem?: string; org?: string }>({});

  const submit = () => {
    const next = { oem: oem.trim() ? undefined : 'OEM name is required', org: org ? undefined : 'Organization is required' };
    setErrors(next);
    if (next.oem || next.org || !org) return;
    save.mutate(
      { id: existing?.id ?? null, input: { oem_name: oem.trim(), organization_id: org, credentials: objectFromRows(rows) } },
      {
        onSuccess: () => {
          feedback.success(existing ? 'OEM credentials updated successfully' : 'OEM credentials created successfully');
          onClose();
        },
        onError: (e) => feedback.error(errorMessage(e, 'Failed to save OEM credentials')),
      },
    );
  };

  return (
    <Stack gap="md">
      <TextInput label="OEM Name" withAsterisk placeholder="e.g. SunKing" value={oem} onChange={(e) => setOem(e.currentTarget.value)} error={errors.oem} />
      <OrganizationSelect label="Organization" withAsterisk value={org} onChange={setOrg} disabled={existing !== null} error={errors.org} />
      <KeyValueEditor
        label="Credentials"
        rows={rows}
        onChange={setRows}
        hint={existing ? 'Secrets show masked; leave a masked value as it is to keep it.' : 'e.g. api_key, client_id, client_secret'}
      />
      {save.isError ? <ErrorAlert message={errorMessage(save.error, 'Failed to save OEM credentials')} /> : null}
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={onClose} disabled={save.isPending}>
          Cancel
        </Button>
        <Button onClick={submit} loading={save.isPending}>
          {existing ? 'Save Changes' : 'Add Credentials'}
        </Button>
      </Group>
    </Stack>
  );
}
