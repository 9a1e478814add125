import { ActionIcon, Group, Stack, Text, Tooltip } from '@mantine/core';
import { IconChartBar, IconPencil, IconUserPlus } from '@tabler/icons-react';
import { useMemo } from 'react';
import { DataTable, type Column } from '@/components/ui/data-table';
import { DEFAULT_DISPLAY_CURRENCY, Money } from '@/components/ui/money';
import { SearchBar, useSearchTerm } from '@/components/ui/search-bar';
import type { PaymentTemplate } from '../api/types';

export const LOAD_FAILED = 'Failed to load data';

/** Case-insensitive match on name, description, payment method or frequency. */
export function matchesTemplate(t: PaymentTemplate, term: string): boolean {
  const q = term.trim().toLowerCase();
  if (!q) return true;
  return [t.template_name, t.description, t.payment_method, t.frequency].some((v) => (v ?? '').toLowerCase().includes(q));
}

export interface TemplatesTabProps {
  templates: PaymentTemplate[] | undefined;
  total: number;
  loading: boolean;
  failed: boolean;
  onRetry: () => void;
  onPerformance: (t: PaymentTemplate) => void;
  onAssign: (t: PaymentTemplate) => void;
  onEdit: (t: PaymentTemplate) => void;
}

export function TemplatesTab({ templates, total, loading, failed, onRetry, onPerformance, onAssign, onEdit }: TemplatesTabProps) {
  const search = useSearchTerm({ delay: 200 });
  const shown = useMemo(() => (templates ?? []).filter((t) => matchesTemplate(t, search.term)), [templates, search.term]);

  const columns: Column<PaymentTemplate>[] = [
    {
      key: 'name',
      header: 'Template Name',
      render: (t) => (
        <Stack gap={0}>
          <Text size="sm" fw={500}>
            {t.template_name}
          </Text>
          <Text size="xs" c="dimmed">
            ID: {t.template_id}
            {t.frequency ? ` · ${t.frequency}` : ''}
          </Text>
        </Stack>
      ),
    },
    { key: 'deposit', header: 'Deposit Made', align: 'right', render: (t) => <Money amount={t.deposit_made} currency={t.currency} size="sm" /> },
    { key: 'daily', header: 'Daily Price', align: 'right', render: (t) => <Money amount={t.daily_price} currency={t.currency} size="sm" fw={600} /> },
    { key: 'activation', header: 'Activation Price', align: 'right', render: (t) => <Money amount={t.activation_price} currency={t.currency} size="sm" /> },
    { key: 'grace', header: 'Grace Period (days)', align: 'right', render: (t) => t.grace_period_days },
    { key: 'currency', header: 'Currency', render: (t) => t.currency?.trim() || DEFAULT_DISPLAY_CURRENCY },
    {
      key: 'actions',
      header: 'Actions',
      align: 'right',
      render: (t) => (
        <Group gap={4} justify="flex-end" wrap="nowrap">
          <Tooltip label="View performance" withArrow>
            <ActionIcon variant="subtle" aria-label={`View performance of ${t.template_name}`} onClick={() => onPerformance(t)}>
              <IconChartBar size={18} />
            </ActionIcon>
          </Tooltip>
          <Tooltip label="Assign to a customer" withArrow>
            <ActionIcon variant="subtle" aria-label={`Assign ${t.template_name}`} onClick={() => onAssign(t)}>
              <IconUserPlus size={18} />
            </ActionIcon>
          </Tooltip>
          <Tooltip label="Edit" withArrow>
            <ActionIcon variant="subtle" aria-label={`Edit ${t.template_name}`} onClick={() => onEdit(t)}>
              <IconPencil size={18} />
            </ActionIcon>
          </Tooltip>
        </Group>
      ),
    },
  ];

  return (
    <Stack gap="md">
      <SearchBar
        label="Search templates"
        placeholder="Search by name, description, payment method or frequency..."
        value={search.input}
        onChange={search.setInput}
        onSubmit={search.submit}
        onClear={search.clear}
      />
      <DataTable
        caption="Payment templates"
        columns={columns}
        rows={shown}
        rowKey={(t) => t.template_id}
        loading={loading}
        error={failed ? LOAD_FAILED : null}
        onRetry={onRetry}
        emptyText={search.term ? 'No templates found matching your search' : 'No templates found'}
        emptyHint={search.term ? undefined : 'Create a template to set the deposit, daily price and grace period customers pay on.'}
        minWidth={900}
      />
      {!loading && !failed ? (
        <Text size="sm" c="dimmed">
          Showing {shown.length} of {total} templates
        </Text>
      ) : null}
    </Stack>
  );
}
