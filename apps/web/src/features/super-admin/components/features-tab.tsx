import { ActionIcon, Badge, Button, Card, Group, Modal, Stack, Switch, Text, Textarea, TextInput, Title, Tooltip } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { ConfirmModal } from '@/components/ui/confirm-modal';
import { DataTable, type Column } from '@/components/ui/data-table';
import { formatDate } from '@/components/ui/date-text';
import { ErrorAlert } from '@/components/ui/error-alert';
import { errorMessage } from '@/lib/api-client';
import { useDeleteFeature, useFeatures, useSaveFeature } from '../api/features';
import type { FeatureFlag } from '../api/types';
import { useConsoleFeedback } from './console-feedback';
import { OrganizationSelect } from './organization-select';

export function FeaturesTab() {
  const feedback = useConsoleFeedback();
  const [org, setOrg] = useState<string | null>(null);
  const features = useFeatures(org ?? '');
  const save = useSaveFeature();
  const remove = useDeleteFeature();
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState<FeatureFlag | null>(null);

  const toggle = (f: FeatureFlag, enabled: boolean) =>
    save.mutate(
      { feature_key: f.feature_key, enabled, organization_id: f.organization_id, description: f.description },
      {
        onSuccess: () => feedback.success(`${f.feature_key} ${enabled ? 'enabled' : 'disabled'} ${f.organization_id ? `for ${f.organization_id}` : 'globally'}`),
        onError: (e) => feedback.error(errorMessage(e, 'Failed to update feature')),
      },
    );

  const columns: Column<FeatureFlag>[] = [
    {
      key: 'key',
      header: 'Feature',
      render: (f) => (
        <Stack gap={0}>
          <Text size="sm" fw={600} ff="monospace">
            {f.feature_key}
          </Text>
          {f.description ? (
            <Text size="xs" c="dimmed">
              {f.description}
            </Text>
          ) : null}
        </Stack>
      ),
    },
    {
      key: 'scope',
      header: 'Scope',
      render: (f) =>
        f.organization_id ? (
          f.organization_id
        ) : (
          <Badge miw="max-content" variant="outline" color="gray" radius="sm">
            Global
          </Badge>
        ),
    },
    {
      key: 'enabled',
      header: 'Enabled',
      render: (f) => (
        <Switch
          aria-label={`${f.feature_key} ${f.organization_id ?? 'global'} enabled`}
          checked={f.enabled}
          disabled={save.isPending}
          onChange={(e) => toggle(f, e.currentTarget.checked)}
        />
      ),
    },
    { key: 'updated', header: 'Updated', render: (f) => formatDate(f.updated_at, true) },
    {
      key: 'actions',
      header: 'Actions',
      align: 'right',
      render: (f) => (
        <Tooltip label="Delete">
          <ActionIcon variant="subtle" color="red" aria-label={`Delete ${f.feature_key} ${f.organization_id ?? 'global'}`} onClick={() => setDeleting(f)}>
            <IconTrash size={16} />
          </ActionIcon>
        </Tooltip>
      ),
    },
  ];

  return (
    <Stack gap="lg">
      <Group justify="space-between">
        <div>
          <Title order={3}>Features</Title>
          <Text size="sm" c="dimmed">
            Feature flags: a global default, overridden per organization.
          </Text>
        </div>
        <Button leftSection={<IconPlus size={16} />} onClick={() => setAdding(true)}>
          Add Feature Flag
        </Button>
      </Group>
      <Card padding="md" radius="md">
        <OrganizationSelect
          aria-label="Filter by organization"
          placeholder="All flags"
          clearable
          value={org}
          onChange={setOrg}
          maw={320}
          mb="md"
        />
        <DataTable
          caption="Feature flags"
          columns={columns}
          rows={features.data}
          rowKey={(f) => f.id}
          loading={features.isPending}
          error={features.isError ? errorMessage(features.error, 'Failed to load features') : null}
          onRetry={() => void features.refetch()}
          emptyText="No feature flags yet"
        />
      </Card>
      <Modal opened={adding} onClose={() => setAdding(false)} title="Add Feature Flag" centered>
        {adding ? <FeatureForm onClose={() => setAdding(false)} /> : null}
      </Modal>
      <ConfirmModal
        opened={deleting !== null}
        onClose={() => !remove.isPending && setDeleting(null)}
        title="Delete Feature Flag"
        message={`Delete ${deleting?.feature_key ?? ''} (${deleting?.organization_id ?? 'global'})?`}
        loading={remove.isPending}
        onConfirm={() =>
          deleting &&
          remove.mutate(deleting.id, {
            onSuccess: () => {
              feedback.success('Feature flag deleted successfully');
              setDeleting(null);
            },
            onError: (e) => {
              feedback.error(errorMessage(e, 'Failed to delete feature flag'));
              setDeleting(null);
            },
          })
        }
      />
    </Stack>
  );
}

function FeatureForm({ onClose }: { onClose: () => void }) {
  const feedback = useConsoleFeedback();
  const save = useSaveFeature();
  const [key, setKey] = useState('');
  const [org, setOrg] = useState<string | null>(null);
  const [enabled, setEnabled] = useState(true);
  const [description, setDescription] = useState('');
  const [error, setError] = useState<string | null>(null);

  const submit = () => {
    if (!/^[a-z0-9][a-z0-9_.-]{0,99}$/.test(key.trim())) {
      setError('Feature key: lower-case letters, digits, ., - or _');
      return;
    }
    save.mutate(
      { feature_key: key.trim(), enabled, organization_id: org, description: description.trim() || null },
      {
        onSuccess: () => {
          feedback.success('Feature flag saved successfully');
          onClose();
        },
        onError: (e) => feedback.error(errorMessage(e, 'Failed to save feature flag')),
      },
    );
  };

  return (
    <Stack gap="md">
      <TextInput
        label="Feature Key"
        withAsterisk
        placeholder="e.g. sms_replies"
        value={key}
        onChange={(e) => {
          setKey(e.currentTarget.value);
          setError(null);
        }}
        error={error}
        data-autofocus
      />
      <OrganizationSelect label="Organization" description="Leave empty for the global default" clearable value={org} onChange={setOrg} />
      <Textarea label="Description" rows={2} value={description} onChange={(e) => setDescription(e.currentTarget.value)} />
      <Switch label="Enabled" checked={enabled} onChange={(e) => setEnabled(e.currentTarget.checked)} />
      {save.isError ? <ErrorAlert message={errorMessage(save.error, 'Failed to save feature flag')} /> : null}
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={onClose} disabled={save.isPending}>
          Cancel
        </Button>
        <Button onClick={submit} loading={save.isPending}>
          Save Feature Flag
        </Button>
      </Group>
    </Stack>
  );
}
