import { Button, Group, Radio, Stack, Switch, Text } from '@mantine/core';
import { IconShieldCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { FOLLOW_ON_RULE_LABELS, FOLLOW_ON_RULES, REPAYMENT_BEHIND_SHARE, REPAYMENT_ON_TRACK_SHARE, type FollowOnRule, type FollowOnSettings } from '@kidogo/contracts';
import { ErrorAlert } from '@/components/ui/error-alert';
import { apiFieldErrors, errorMessage } from '@/lib/api-client';
import { toast } from '@/lib/notify';
import { SettingsFormCard } from '@/features/settings/components/settings-form-card';
import { useFollowOnSettings, useUpdateFollowOnSettings } from '../api/follow-on-settings';

export const FOLLOW_ON_SAVE_FAILED = 'Failed to save the follow-on sales rule';

/** What each rule means for the customers it refuses. */
const RULE_HELP: Record<FollowOnRule, string> = {
  any: 'Every customer can be given another device, whatever their repayment.',
  behind: `Refuses customers far behind: under ${REPAYMENT_BEHIND_SHARE}% of what their plans expect paid by today.`,
  on_track: `Refuses customers behind: under ${REPAYMENT_ON_TRACK_SHARE}% of what their plans expect paid by today.`,
};

function FollowOnForm({ settings }: { settings: FollowOnSettings }) {
  const [rule, setRule] = useState<FollowOnRule>(settings.rule);
  const [refuseRepossessed, setRefuseRepossessed] = useState(settings.refuse_repossessed);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const save = useUpdateFollowOnSettings();
  const changed = rule !== settings.rule || refuseRepossessed !== settings.refuse_repossessed;

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (save.isPending) return;
    save.mutate(
      { rule, refuse_repossessed: refuseRepossessed },
      {
        onSuccess: () => {
          setErrors({});
          toast.success('Follow-on sales rule saved');
        },
        onError: (error) => setErrors(apiFieldErrors(error)),
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Follow-on sales rule">
      <Stack gap="md">
        {save.isError ? <ErrorAlert title={FOLLOW_ON_SAVE_FAILED} message={errorMessage(save.error, FOLLOW_ON_SAVE_FAILED)} /> : null}
        <Radio.Group
          label="Give another device on credit"
          value={rule}
          onChange={(v) => setRule(v as FollowOnRule)}
          error={errors.rule}
        >
          <Stack gap="xs" mt="xs">
            {FOLLOW_ON_RULES.map((r) => (
              <Radio key={r} value={r} label={FOLLOW_ON_RULE_LABELS[r]} description={RULE_HELP[r]} />
            ))}
          </Stack>
        </Radio.Group>
        <Switch
          label="None to customers a device was repossessed from"
          description="Also when they hold no device now."
          checked={refuseRepossessed}
          onChange={(e) => setRefuseRepossessed(e.currentTarget.checked)}
          error={errors.refuse_repossessed}
        />
        <Group justify="space-between" align="flex-end">
          <Text size="xs" c="dimmed" maw={360}>
            A customer the rule refuses gets a device only from an owner or admin, with a reason kept in the Activity Log. A first device is
            never refused by the standing.
          </Text>
          <Button type="submit" loading={save.isPending} disabled={!changed}>
            Save Rule
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * Follow-on sales: whether a customer who already holds devices may be given
 * another on credit, by their repayment standing (Onboarding and Assign
 * Product check it).
 */
export function FollowOnSalesCard() {
  return (
    <SettingsFormCard
      title="Follow-on Sales"
      icon={<IconShieldCheck size={20} />}
      description="Who may be given another device on credit, by how they repay the devices they hold. Onboarding and Assign Product check it before a device is given."
      query={useFollowOnSettings()}
      loadFailed="Failed to load the follow-on sales rule"
    >
      {(data) => <FollowOnForm key={`${data.rule}-${data.refuse_repossessed}`} settings={data} />}
    </SettingsFormCard>
  );
}
