import { ActionIcon, Alert, Badge, Button, Card, Checkbox, Code, Group, Modal, Select, Stack, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { IconAlertTriangle, IconKey, IconPlus, IconTrash } from '@tabler/icons-react';
import { API_TOKEN_DEFAULT_DAYS, ZApiTokenCreateSchema, type ApiToken, type ApiTokenCreated } from '@kidogo/contracts';
import { useState } from 'react';
import { ConfirmModal } from '@/components/ui/confirm-modal';
import { DataTable, type Column } from '@/components/ui/data-table';
import { DateText } from '@/components/ui/date-text';
import { ErrorAlert } from '@/components/ui/error-alert';
import { SecretField } from '@/components/ui/secret-field';
import { API_BASE, apiFieldErrors, errorMessage } from '@/lib/api-client';
import { toast } from '@/lib/notify';
import { managesOrganization, useSession } from '@/lib/session';
import { useApiTokens, useCreateApiToken, useRevokeApiToken } from '../api/api-tokens';

export const REVOKE_FAILED = 'Failed to revoke the token';

const EXPIRY = [
  { value: '30', label: '30 days' },
  { value: String(API_TOKEN_DEFAULT_DAYS), label: `${API_TOKEN_DEFAULT_DAYS} days` },
  { value: '180', label: '180 days' },
  { value: '365', label: '1 year' },
  { value: 'never', label: 'Never (until revoked)' },
];

function NewTokenModal({ opened, onClose, onCreated }: { opened: boolean; onClose: () => void; onCreated: (t: ApiTokenCreated) => void }) {
  const create = useCreateApiToken();
  const [name, setName] = useState('');
  const [expiry, setExpiry] = useState(String(API_TOKEN_DEFAULT_DAYS));
  const [readOnly, setReadOnly] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const close = () => {
    if (create.isPending) return;
    create.reset();
    setError(null);
    onClose();
  };
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const body = { name: name.trim(), expires_in_days: expiry === 'never' ? null : Number(expiry), read_only: readOnly };
    const checked = ZApiTokenCreateSchema.safeParse(body);
    if (!checked.success) {
      setError(`Name ${checked.error.issues[0]?.message ?? 'is required'}`);
      return;
    }
    create.mutate(body, {
      onSuccess: (t) => {
        setName('');
        setExpiry(String(API_TOKEN_DEFAULT_DAYS));
        setReadOnly(false);
        create.reset();
        onCreated(t);
      },
      onError: (err) => {
        const fields = apiFieldErrors(err);
        setError(fields.name ? `Name ${fields.name}` : null);
      },
    });
  };
  return (
    <Modal opened={opened} onClose={close} title="New API Token" size="md">
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            The token acts as you, with your role, on every call you may make. Give each integration its own, so you can revoke one without
            the others.
          </Text>
          <TextInput
            label="Name"
            placeholder="What uses it, e.g. ERPNext sync"
            withAsterisk
            value={name}
            onChange={(e) => {
              setName(e.currentTarget.value);
              setError(null);
            }}
            error={error}
            data-autofocus
          />
          <Select label="Expires after" data={EXPIRY} value={expiry} onChange={(v) => setExpiry(v ?? String(API_TOKEN_DEFAULT_DAYS))} allowDeselect={false} />
          <Checkbox
            label="Read only"
            description="It may read (lists, searches, reports) and never change anything: for a dashboard or a data warehouse."
            checked={readOnly}
            onChange={(e) => setReadOnly(e.currentTarget.checked)}
          />
          {create.isError && !error ? <ErrorAlert message={errorMessage(create.error, 'Failed to create the token')} /> : null}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close} disabled={create.isPending}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending}>
              Create Token
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function CreatedTokenModal({ token, onClose }: { token: ApiTokenCreated | null; onClose: () => void }) {
  const origin = typeof window === 'undefined' ? '' : window.location.origin;
  return (
    <Modal opened={token !== null} onClose={onClose} title="API Token Created" size="lg">
      {token ? (
        <Stack gap="md">
          <Alert color="yellow" icon={<IconAlertTriangle size={18} />} title="Copy it now">
            It is shown only this once. Keep it like a password: anyone with it can act as you.
          </Alert>
          <SecretField label={token.name} value={token.token} copyLabel="Copy token" />
          <div>
            <Text size="sm" fw={500} mb={4}>
              Using it
            </Text>
            <Code block>{`curl -H "Authorization: Bearer ${token.token.slice(0, 12)}…" ${origin}${API_BASE}/me`}</Code>
            <Text size="xs" c="dimmed" mt={4}>
              Every endpoint is described at {API_BASE}/docs.
            </Text>
          </div>
          <Group justify="flex-end">
            <Button onClick={onClose}>Done</Button>
          </Group>
        </Stack>
      ) : null}
    </Modal>
  );
}

/**
 * API tokens for integrations: each acts as the user who made it until it is
 * revoked or expires. Everyone manages their own; owners and admins also see
 * and revoke the organization's, so a leaked one can be shut off at once.
 */
export function ApiTokensCard() {
  const { user } = useSession();
  const manager = managesOrganization(user);
  const tokens = useApiTokens();
  const revoke = useRevokeApiToken();
  const [adding, setAdding] = useState(false);
  const [created, setCreated] = useState<ApiTokenCreated | null>(null);
  const [revoking, setRevoking] = useState<ApiToken | null>(null);

  const columns: Column<ApiToken>[] = [
    {
      key: 'name',
      header: 'Name',
      render: (t) => (
        <div>
          <Text size="sm" fw={500}>
            {t.name}
          </Text>
          <Group gap={6}>
            <Text size="xs" c="dimmed" ff="monospace">
              {t.hint}
            </Text>
            {t.read_only ? (
              <Badge size="xs" variant="light" color="gray">
                Read only
              </Badge>
            ) : null}
          </Group>
        </div>
      ),
    },
    ...(manager ? [{ key: 'user', header: 'User', render: (t: ApiToken) => <Text size="sm">{t.username}</Text> }] : []),
    { key: 'used', header: 'Last Used', render: (t) => (t.last_used_at ? <DateText value={t.last_used_at} withTime /> : <Text size="sm" c="dimmed">Never</Text>) },
    {
      key: 'expires',
      header: 'Expires',
      render: (t) =>
        t.expired ? (
          <Badge color="red" variant="light" size="sm">
            Expired
          </Badge>
        ) : t.expires_at ? (
          <DateText value={t.expires_at} />
        ) : (
          <Text size="sm">Never</Text>
        ),
    },
    {
      key: 'actions',
      header: 'Actions',
      align: 'right',
      render: (t) => (
        <Tooltip label="Revoke">
          <ActionIcon variant="subtle" color="red" aria-label={`Revoke ${t.name}`} onClick={() => setRevoking(t)}>
            <IconTrash size={16} />
          </ActionIcon>
        </Tooltip>
      ),
    },
  ];

  return (
    <Card padding="lg" component="section" aria-label="API Tokens">
      <Group justify="space-between" align="flex-start" mb="md" gap="sm">
        <div>
          <Group gap="sm" mb={4}>
            <IconKey size={20} />
            <Title order={4}>API Tokens</Title>
          </Group>
          <Text size="sm" c="dimmed">
            For integrations that call the API: each token acts as you{manager ? ' (and you see everyone’s)' : ''}.
          </Text>
        </div>
        <Button variant="light" leftSection={<IconPlus size={16} />} onClick={() => setAdding(true)}>
          New Token
        </Button>
      </Group>
      <DataTable
        caption="API tokens"
        columns={columns}
        rows={tokens.data?.data}
        rowKey={(t) => t.id}
        minWidth={manager ? 520 : 420}
        loading={tokens.isPending}
        error={tokens.isError ? errorMessage(tokens.error, 'Failed to load the API tokens') : null}
        onRetry={() => void tokens.refetch()}
        emptyText="No API tokens"
        emptyHint="Make one for each system that calls Kidogo's API."
      />
      <NewTokenModal
        opened={adding}
        onClose={() => setAdding(false)}
        onCreated={(t) => {
          setAdding(false);
          setCreated(t);
        }}
      />
      <CreatedTokenModal token={created} onClose={() => setCreated(null)} />
      <ConfirmModal
        opened={revoking !== null}
        onClose={() => {
          revoke.reset();
          setRevoking(null);
        }}
        onConfirm={() =>
          revoking &&
          revoke.mutate(revoking.id, {
            onSuccess: (r) => {
              toast.success(r.message);
              setRevoking(null);
            },
          })
        }
        title="Revoke API token?"
        message={`Revoke ${revoking?.name ?? 'this token'}${revoking && revoking.username !== user?.username ? ` of ${revoking.username}` : ''}? Whatever uses it is refused from its next call. This cannot be undone.`}
        confirmLabel="Revoke Token"
        loading={revoke.isPending}
        error={revoke.isError ? errorMessage(revoke.error, REVOKE_FAILED) : null}
        errorTitle={REVOKE_FAILED}
      />
    </Card>
  );
}
