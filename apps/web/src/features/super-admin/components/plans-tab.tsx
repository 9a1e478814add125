import { ActionIcon, Badge, Button, Card, Group, Modal, NumberInput, Select, SimpleGrid, Stack, TagsInput, Text, Textarea, TextInput, Title, Tooltip } from '@mantine/core';
import { IconPlus, IconTrash, IconUnlink } from '@tabler/icons-react';
import { useState } from 'react';
import { ConfirmModal } from '@/components/ui/confirm-modal';
import { EditDeleteActions } from '@/components/ui/row-actions';
import { DataTable, type Column } from '@/components/ui/data-table';
import { formatDate } from '@/components/ui/date-text';
import { ErrorAlert } from '@/components/ui/error-alert';
import { errorMessage } from '@/lib/api-client';
import { useAssignOrgPlan, useDeletePlan, useOrgPlans, usePlans, useSavePlan, useUnassignOrgPlan } from '../api/plans';
import type { OrgPlan, Plan } from '../api/types';
import { useConsoleFeedback } from './console-feedback';
import { kvRow, type KeyValueRow } from './key-value-editor';
import { OrganizationSelect } from './organization-select';

const PLAN_CURRENCIES = ['USD', 'KES', 'EUR', 'GBP', 'MZN'];

export function PlansTab() {
  const feedback = useConsoleFeedback();
  const plans = usePlans();
  const orgPlans = useOrgPlans();
  const remove = useDeletePlan();
  const unassign = useUnassignOrgPlan();
  const [editing, setEditing] = useState<Plan | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Plan | null>(null);

  const columns: Column<Plan>[] = [
    {
      key: 'code',
      header: 'Plan',
      render: (p) => (
        <Stack gap={0}>
          <Text size="sm" fw={600} ff="monospace">
            {p.plan_code}
          </Text>
          {p.name ? (
            <Text size="xs" c="dimmed">
              {p.name}
            </Text>
          ) : null}
        </Stack>
      ),
    },
    { key: 'price', header: 'Price', render: (p) => (p.price !== null ? `${p.currency} ${Number(p.price).toFixed(2)}` : '—') },
    {
      key: 'features',
      header: 'Features',
      render: (p) =>
        p.features.length ? (
          <Group gap={4}>
            {p.features.map((f) => (
              <Badge miw="max-content" key={f} size="sm" variant="light" radius="sm" tt="none">
                {f}
              </Badge>
            ))}
          </Group>
        ) : (
          '—'
        ),
    },
    {
      key: 'quotas',
      header: 'Quotas',
      render: (p) =>
        Object.keys(p.quotas).length ? (
          <Stack gap={0}>
            {Object.entries(p.quotas).map(([k, v]) => (
              <Text key={k} size="xs">
                {k}: {v.toLocaleString()}
              </Text>
            ))}
          </Stack>
        ) : (
          '—'
        ),
    },
    { key: 'orgs', header: 'Organizations', align: 'right', render: (p) => p.organization_count },
    {
      key: 'actions',
      header: 'Actions',
      align: 'right',
      render: (p) => <EditDeleteActions name={`plan ${p.plan_code}`} onEdit={() => setEditing(p)} onDelete={() => setDeleting(p)} />,
    },
  ];

  const orgColumns: Column<OrgPlan>[] = [
    { key: 'org', header: 'Organization', render: (o) => o.organization_id },
    { key: 'plan', header: 'Plan', render: (o) => (o.plan_name ? `${o.plan_name} (${o.plan_code})` : o.plan_code) },
    { key: 'at', header: 'Since', render: (o) => formatDate(o.assigned_at) },
    {
      key: 'actions',
      header: 'Actions',
      align: 'right',
      render: (o) => (
        <Tooltip label="Take off the plan">
          <ActionIcon
            variant="subtle"
            color="red"
            aria-label={`Remove the plan of ${o.organization_id}`}
            loading={unassign.isPending && unassign.variables === o.organization_id}
            onClick={() =>
              unassign.mutate(o.organization_id, {
                onSuccess: () => feedback.success(`${o.organization_id} is no longer on a plan`),
                onError: (e) => feedback.error(errorMessage(e, 'Failed to remove the plan')),
              })
            }
          >
            <IconUnlink size={16} />
          </ActionIcon>
        </Tooltip>
      ),
    },
  ];

  return (
    <Stack gap="lg">
      <Group justify="space-between">
        <div>
          <Title order={3}>Plans</Title>
          <Text size="sm" c="dimmed">
            Subscription plans with the features they include and their limits.
          </Text>
        </div>
        <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')}>
          Add Plan
        </Button>
      </Group>
      <Card padding="md" radius="md">
        <DataTable
          caption="Plans"
          columns={columns}
          rows={plans.data}
          rowKey={(p) => p.plan_code}
          loading={plans.isPending}
          error={plans.isError ? errorMessage(plans.error, 'Failed to load plans') : null}
          onRetry={() => void plans.refetch()}
          emptyText="No plans yet"
          minWidth={860}
        />
      </Card>
      <Title order={4}>Organization Plans</Title>
      <Card padding="md" radius="md">
        <AssignPlanForm plans={plans.data ?? []} />
        <DataTable
          caption="Organization plans"
          columns={orgColumns}
          rows={orgPlans.data}
          rowKey={(o) => o.organization_id}
          loading={orgPlans.isPending}
          error={orgPlans.isError ? errorMessage(orgPlans.error, 'Failed to load organization plans') : null}
          onRetry={() => void orgPlans.refetch()}
          emptyText="No organization is on a plan"
        />
      </Card>
      <Modal opened={editing !== null} onClose={() => setEditing(null)} title={editing === 'new' ? 'Add Plan' : 'Edit Plan'} size="lg" centered>
        {editing ? <PlanForm key={editing === 'new' ? 'new' : editing.plan_code} target={editing} onClose={() => setEditing(null)} /> : null}
      </Modal>
      <ConfirmModal
        opened={deleting !== null}
        onClose={() => !remove.isPending && setDeleting(null)}
        title="Delete Plan"
        message={`Delete the plan ${deleting?.plan_code ?? ''}? A plan organizations are on cannot be deleted.`}
        loading={remove.isPending}
        onConfirm={() =>
          deleting &&
          remove.mutate(deleting.plan_code, {
            onSuccess: () => {
              feedback.success('Plan deleted successfully');
              setDeleting(null);
            },
            onError: (e) => {
              feedback.error(errorMessage(e, 'Failed to delete plan'));
              setDeleting(null);
            },
          })
        }
      />
    </Stack>
  );
}

function AssignPlanForm({ plans }: { plans: Plan[] }) {
  const feedback = useConsoleFeedback();
  const assign = useAssignOrgPlan();
  const [org, setOrg] = useState<string | null>(null);
  const [plan, setPlan] = useState<string | null>(null);
  return (
    <Group gap="sm" mb="md" align="flex-end" wrap="wrap">
      <OrganizationSelect label="Organization" value={org} onChange={setOrg} w={280} />
      <Select
        label="Plan"
        placeholder="Choose a plan"
        data={plans.map((p) => ({ value: p.plan_code, label: p.name ? `${p.name} (${p.plan_code})` : p.plan_code }))}
        value={plan}
        onChange={setPlan}
        w={240}
      />
      <Button
        variant="light"
        disabled={!org || !plan}
        loading={assign.isPending}
        onClick={() =>
          org &&
          plan &&
          assign.mutate(
            { organization_id: org, plan_code: plan },
            {
              onSuccess: () => {
                feedback.success(`${org} is now on the ${plan} plan`);
                setOrg(null);
                setPlan(null);
              },
              onError: (e) => feedback.error(errorMessage(e, 'Failed to assign the plan')),
            },
          )
        }
      >
        Assign Plan
      </Button>
    </Group>
  );
}

const quotaRows = (quotas: Record<string, number> | undefined): KeyValueRow[] => {
  const rows = Object.entries(quotas ?? {}).map(([k, v]) => kvRow(k, String(v)));
  return rows.length ? rows : [kvRow()];
};

function PlanForm({ target, onClose }: { target: Plan | 'new'; onClose: () => void }) {
  const feedback = useConsoleFeedback();
  const save = useSavePlan();
  const existing = target === 'new' ? null : target;
  const [code, setCode] = useState(existing?.plan_code ?? '');
  const [name, setName] = useState(existing?.name ?? '');
  const [description, setDescription] = useState(existing?.description ?? '');
  const [price, setPrice] = useState<number | string>(existing?.price !== null && existing?.price !== undefined ? Number(existing.price) : '');
  const [currency, setCurrency] = useState<string | null>(existing?.currency ?? 'USD');
  const [features, setFeatures] = useState<string[]>(existing?.features ?? []);
  const [quotas, setQuotas] = useState<KeyValueRow[]>(quotaRows(existing?.quotas));
  const [errors, setErrors] = useState<{ code?: string; quotas?: string }>({});

  const submit = () => {
    const parsed: Record<string, number> = {};
    let quotaError: string | undefined;
    for (const r of quotas) {
      if (!r.key.trim()) continue;
      const n = Number(r.value);
      if (r.value.trim() === '' || !Number.isFinite(n)) quotaError = `Quota ${r.key.trim()} must be a number`;
      else parsed[r.key.trim()] = n;
    }
    const next = {
      code: /^[a-z0-9][a-z0-9_-]{0,63}$/.test(code.trim()) ? undefined : 'Plan code: lower-case letters, digits, - or _',
      quotas: quotaError,
    };
    setErrors(next);
    if (next.code || next.quotas) return;
    save.mutate(
      {
        editing: existing !== null,
        input: {
          plan_code: code.trim(),
          name: name.trim() || null,
          description: description.trim() || null,
          price: price === '' ? null : Math.round(Number(price) * 100) / 100,
          currency: currency ?? 'USD',
          features,
          quotas: parsed,
        },
      },
      {
        onSuccess: () => {
          feedback.success(existing ? 'Plan updated successfully' : 'Plan created successfully');
          onClose();
        },
        onError: (e) => feedback.error(errorMessage(e, 'Failed to save plan')),
      },
    );
  };

  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <TextInput label="Plan Code" withAsterisk placeholder="e.g. growth" value={code} onChange={(e) => setCode(e.currentTarget.value)} disabled={existing !== null} error={errors.code} />
        <TextInput label="Name" placeholder="e.g. Growth" value={name} onChange={(e) => setName(e.currentTarget.value)} />
        <NumberInput label="Price" min={0} step={0.01} decimalScale={2} allowNegative={false} value={price} onChange={setPrice} />
        <Select label="Currency" data={PLAN_CURRENCIES} value={currency} onChange={setCurrency} allowDeselect={false} />
      </SimpleGrid>
      <Textarea label="Description" rows={2} value={description} onChange={(e) => setDescription(e.currentTarget.value)} />
      <TagsInput label="Features" description="Feature keys included in the plan; press Enter after each" value={features} onChange={setFeatures} clearable />
      <Stack gap={6}>
        <Text size="sm" fw={500}>
          Quotas
        </Text>
        {quotas.map((r, i) => (
          <Group key={r.id} gap="xs" wrap="nowrap">
            <TextInput
              aria-label={`Quota name ${i + 1}`}
              placeholder="e.g. devices"
              value={r.key}
              onChange={(e) => {
                const key = e.currentTarget.value;
                setQuotas((qs) => qs.map((q) => (q.id === r.id ? { ...q, key } : q)));
              }}
              w="50%"
            />
            <TextInput
              aria-label={`Quota limit ${i + 1}`}
              placeholder="e.g. 1000"
              value={r.value}
              onChange={(e) => {
                const value = e.currentTarget.value;
                setQuotas((qs) => qs.map((q) => (q.id === r.id ? { ...q, value } : q)));
              }}
              style={{ flex: 1 }}
            />
            <ActionIcon variant="subtle" color="red" aria-label={`Remove quota ${i + 1}`} onClick={() => setQuotas((qs) => (qs.length > 1 ? qs.filter((q) => q.id !== r.id) : [kvRow()]))}>
              <IconTrash size={16} />
            </ActionIcon>
          </Group>
        ))}
        <Button size="xs" variant="subtle" leftSection={<IconPlus size={14} />} onClick={() => setQuotas((qs) => [...qs, kvRow()])} w="fit-content">
          Add quota
        </Button>
        {errors.quotas ? (
          <Text size="xs" c="red">
            {errors.quotas}
          </Text>
        ) : null}
      </Stack>
      {save.isError ? <ErrorAlert message={errorMessage(save.error, 'Failed to save plan')} /> : null}
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={onClose} disabled={save.isPending}>
          Cancel
        </Button>
        <Button onClick={submit} loading={save.isPending}>
          {existing ? 'Save Changes' : 'Add Plan'}
        </Button>
      </Group>
    </Stack>
  );
}

