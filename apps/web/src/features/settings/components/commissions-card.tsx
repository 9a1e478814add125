import { Anchor, Button, Group, NumberInput, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconCoins } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { formatMoney } from '@/components/ui/money';
import { ErrorAlert } from '@/components/ui/error-alert';
import { paths } from '@/config/paths';
import { apiFieldErrors, errorMessage } from '@/lib/api-client';
import { useOrganizationCurrency } from '@/lib/organization-currency';
import { toast } from '@/lib/notify';
import { SettingsFormCard } from './settings-form-card';
import { useCommissions } from '../api/get-commissions';
import { useUpdateCommissions } from '../api/update-commissions';
import { COMMISSION_PER_DEVICE_MAX, type CommissionSettings } from '../api/types';

export const COMMISSIONS_SAVE_FAILED = 'Failed to save agent commissions';

interface Draft {
  per_device: number | string;
  percent: number | string;
}

const draftOf = (s: CommissionSettings): Draft => ({ per_device: Number(s.per_device), percent: Number(s.percent) });

/** What the saved settings pay: "An agent whose customers were given 10 devices and paid KES 100,000.00 earns KES 7,500.00." */
function exampleText(s: CommissionSettings, currency: string | null): string {
  const { devices_given, revenue, commission } = s.example;
  if (Number(s.per_device) === 0 && Number(s.percent) === 0) return 'No commission is reckoned: both are 0.';
  return `An agent whose customers were given ${devices_given} devices and paid ${formatMoney(revenue, currency)} in a period earns ${formatMoney(commission, currency)}.`;
}

function CommissionsForm({ settings }: { settings: CommissionSettings }) {
  const currency = useOrganizationCurrency();
  const [draft, setDraft] = useState<Draft>(() => draftOf(settings));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const save = useUpdateCommissions();
  const set = <K extends keyof Draft>(k: K, v: Draft[K]) => {
    setDraft((d) => ({ ...d, [k]: v }));
    setErrors((e) => ({ ...e, [k]: '' }));
  };

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (save.isPending) return;
    // An emptied field is 0: no commission of that kind.
    const value = (v: number | string) => (v === '' ? 0 : Number(v));
    save.mutate(
      { per_device: value(draft.per_device), percent: value(draft.percent) },
      {
        onSuccess: (reply) => {
          setDraft(draftOf(reply));
          setErrors({});
          toast.success('Agent commissions saved');
        },
        onError: (error) => setErrors(apiFieldErrors(error)),
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Agent commissions">
      <Stack gap="md">
        {save.isError ? <ErrorAlert title={COMMISSIONS_SAVE_FAILED} message={errorMessage(save.error, COMMISSIONS_SAVE_FAILED)} /> : null}
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <NumberInput
            label="Per device given"
            description="For each device given to one of the agent's customers"
            leftSection={<Text size="xs">{currency ?? ''}</Text>}
            leftSectionWidth={currency ? 44 : undefined}
            min={0}
            max={COMMISSION_PER_DEVICE_MAX}
            step={50}
            decimalScale={2}
            allowNegative={false}
            thousandSeparator=","
            value={draft.per_device}
            onChange={(v) => set('per_device', v)}
            error={errors.per_device}
          />
          <NumberInput
            label="Of payments collected"
            description="A share of what the agent's customers paid"
            rightSection={<Text size="xs">%</Text>}
            min={0}
            max={100}
            step={0.5}
            decimalScale={2}
            allowNegative={false}
            value={draft.percent}
            onChange={(v) => set('percent', v)}
            error={errors.percent}
          />
        </SimpleGrid>
        <Paper withBorder p="sm" bg="var(--mantine-color-default-hover)">
          <Text size="sm" data-testid="commission-example">
            {exampleText(settings, currency)}
          </Text>
        </Paper>
        <Group justify="space-between">
          <Stack gap={2}>
            <Anchor component={Link} to={paths.app.reports.getHref()} size="xs">
              Each agent&apos;s commission is in the Agent Report
            </Anchor>
            <Anchor component={Link} to={paths.app.commissions.getHref()} size="xs">
              Paid month by month on Agent Commissions
            </Anchor>
          </Stack>
          <Button type="submit" loading={save.isPending}>
            Save Commissions
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * Agent commissions: what the organization pays its sales agents (the
 * customers' Agent ID), reckoned for any period in the Agent report.
 */
export function CommissionsCard() {
  return (
    <SettingsFormCard
      title="Agent Commissions"
      icon={<IconCoins size={20} />}
      description="What your sales agents earn, reckoned for any period in the Agent Report: an amount for each device given to one of their customers, and a share of what their customers paid."
      query={useCommissions()}
      loadFailed="Failed to load agent commissions"
    >
      {(data) => <CommissionsForm key={`${data.per_device}-${data.percent}`} settings={data} />}
    </SettingsFormCard>
  );
}
