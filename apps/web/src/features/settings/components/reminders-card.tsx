import { Alert, Button, Group, NativeSelect, Paper, SimpleGrid, Stack, Switch, Text } from '@mantine/core';
import { IconAlarm } from '@tabler/icons-react';
import { useState } from 'react';
import { formatDate } from '@/components/ui/date-text';
import { ErrorAlert } from '@/components/ui/error-alert';
import { apiFieldErrors, errorMessage } from '@/lib/api-client';
import { toast } from '@/lib/notify';
import { SettingsFormCard } from './settings-form-card';
import { useReminders } from '../api/get-reminders';
import { useUpdateReminders } from '../api/update-reminders';

/** The reply languages by name, as Settings → SMS Provider offers them. */
const LANGUAGE_NAMES: Record<string, string> = { en: 'English', sw: 'Kiswahili', fr: 'French' };
import { REMINDER_DAYS_BEFORE_MAX, type ReminderSettings } from '../api/types';

export const REMINDERS_SAVE_FAILED = 'Failed to save payment reminders';

const DAY_OPTIONS = Array.from({ length: REMINDER_DAYS_BEFORE_MAX + 1 }, (_, d) => ({
  value: String(d),
  label: d === 0 ? 'On the day the credit runs out' : d === 1 ? '1 day before' : `${d} days before`,
}));
const HOUR_OPTIONS = Array.from({ length: 24 }, (_, h) => ({ value: String(h), label: `From ${String(h).padStart(2, '0')}:00` }));

interface Draft {
  enabled: boolean;
  days_before: number;
  send_hour: number;
}

const draftOf = (s: ReminderSettings): Draft => ({ enabled: s.enabled, days_before: s.days_before, send_hour: s.send_hour });

/** "12 reminders in the last 30 days, the last on 21 Nov 2026, 09:05", or that there were none. */
function sentText(s: ReminderSettings): string {
  if (s.sent_30_days === 0) return 'No reminders in the last 30 days';
  const count = s.sent_30_days === 1 ? '1 reminder' : `${s.sent_30_days.toLocaleString()} reminders`;
  return `${count} in the last 30 days${s.last_sent_at ? `, the last ${formatDate(s.last_sent_at, true)}` : ''}`;
}

function RemindersForm({ settings }: { settings: ReminderSettings }) {
  const [draft, setDraft] = useState<Draft>(() => draftOf(settings));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const save = useUpdateReminders();
  const set = <K extends keyof Draft>(k: K, v: Draft[K]) => {
    setDraft((d) => ({ ...d, [k]: v }));
    setErrors((e) => ({ ...e, [k]: '' }));
  };

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (save.isPending) return;
    save.mutate(draft, {
      onSuccess: (reply) => {
        setDraft(draftOf(reply));
        toast.success(reply.enabled ? 'Payment reminders are on' : 'Payment reminders are off');
      },
      onError: (error) => setErrors(apiFieldErrors(error)),
    });
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Payment reminders">
      <Stack gap="md">
        {save.isError ? <ErrorAlert title={REMINDERS_SAVE_FAILED} message={errorMessage(save.error, REMINDERS_SAVE_FAILED)} /> : null}
        {!settings.can_send ? (
          <Alert color="yellow" title="No SMS provider">
            Reminders are only made when they can be sent: choose one under SMS Provider, or ask your administrator to set up this server&apos;s.
          </Alert>
        ) : null}
        <Switch label="Send payment reminders" checked={draft.enabled} onChange={(e) => set('enabled', e.currentTarget.checked)} />
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <NativeSelect
            label="When"
            description="Before the credit runs out"
            data={DAY_OPTIONS}
            value={String(draft.days_before)}
            onChange={(e) => set('days_before', Number(e.currentTarget.value))}
            error={errors.days_before}
            disabled={!draft.enabled}
          />
          <NativeSelect
            label="Time"
            description={`Business time, ${settings.time_zone}`}
            data={HOUR_OPTIONS}
            value={String(draft.send_hour)}
            onChange={(e) => set('send_hour', Number(e.currentTarget.value))}
            error={errors.send_hour}
            disabled={!draft.enabled}
          />
        </SimpleGrid>
        <Stack gap={4}>
          <Text size="sm" fw={500}>
            A reminder reads ({LANGUAGE_NAMES[settings.language] ?? 'English'}, as saved)
          </Text>
          <Paper withBorder p="sm" bg="var(--mantine-color-default-hover)">
            <Text size="sm" style={{ overflowWrap: 'anywhere' }} data-testid="reminder-preview">
              {settings.preview}
            </Text>
          </Paper>
        </Stack>
        <Group justify="space-between">
          <Text size="xs" c="dimmed">
            {sentText(settings)}
          </Text>
          <Button type="submit" loading={save.isPending}>
            Save Reminders
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * Payment reminders: an SMS to each customer a chosen number of days before
 * their device's credit runs out, sent through the SMS provider above in the
 * reply language.
 */
export function RemindersCard() {
  return (
    <SettingsFormCard
      title="Payment Reminders"
      icon={<IconAlarm size={20} />}
      description={
        <>
          An SMS to each customer before their device&apos;s credit runs out, so they can pay before it locks. One per device for each day its
          credit runs out on.
        </>
      }
      query={useReminders()}
      loadFailed="Failed to load payment reminders"
    >
      {(data) => <RemindersForm key={`${data.enabled}-${data.days_before}-${data.send_hour}`} settings={data} />}
    </SettingsFormCard>
  );
}
