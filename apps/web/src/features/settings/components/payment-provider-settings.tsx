import { ActionIcon, Alert, Badge, Button, Code, CopyButton, Group, PasswordInput, Stack, Text, Tooltip } from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconCircleCheck, IconCircleX, IconCopy, IconPlugConnected } from '@tabler/icons-react';
import { useState, type FormEvent, type ReactNode } from 'react';
import { toast } from '@/lib/notify';
import { formatDate } from '@/components/ui/date-text';
import { ErrorAlert } from '@/components/ui/error-alert';
import { apiFieldErrors, errorMessage } from '@/lib/api-client';
import { labelledFieldErrors } from '@/lib/validation';

/**
 * What the Settings cards of the ways to ask a customer to pay (M-Pesa
 * Express, MTN MoMo, Airtel Money) share: secrets that come back masked and are kept
 * unless typed anew, whether requests can be sent, where the provider posts
 * its results, and a connection test of the saved keys.
 */

export const CONNECTION_TEST_FAILED = 'Connection test failed';

/**
 * A provider's settings form: the draft and its errors by field (a field's error goes once it is changed), whether
 * the draft differs from what is saved (the connection test tries what is saved), and Save: checked first, then sent,
 * the server's refusals put under their fields by their labels.
 */
export function useProviderForm<S, D extends object, I, F extends string>(o: {
  settings: S;
  draftOf: (settings: S) => D;
  toInput: (draft: D, settings: S) => I;
  validate: (draft: D, settings: S) => Partial<Record<F, string>>;
  labels: Record<F, string>;
  save: { isPending: boolean; mutate: (input: I, callbacks: { onSuccess: () => void; onError: (error: unknown) => void }) => void };
  test: { reset: () => void };
  /** The toast once saved, by the draft saved (on, or off). */
  saved: (draft: D) => string;
}) {
  const [draft, setDraft] = useState<D>(() => o.draftOf(o.settings));
  const [errors, setErrors] = useState<Partial<Record<F, string>>>({});
  const set = <K extends keyof D>(k: K, v: D[K]) => {
    setDraft((d) => ({ ...d, [k]: v }));
    setErrors((e) => ({ ...e, [k]: undefined }));
  };
  const unsaved = JSON.stringify(o.toInput(draft, o.settings)) !== JSON.stringify(o.toInput(o.draftOf(o.settings), o.settings));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = o.validate(draft, o.settings);
    setErrors(found);
    if (Object.values(found).some(Boolean) || o.save.isPending) return;
    o.test.reset();
    o.save.mutate(o.toInput(draft, o.settings), {
      onSuccess: () => toast.success(o.saved(draft)),
      onError: (error) => setErrors(labelledFieldErrors(apiFieldErrors(error), o.labels)),
    });
  };
  return { draft, errors, set, unsaved, submit };
}

/** What GET answers of every provider's set-up. */
export interface ProviderSetUp {
  configured: boolean;
  ready: boolean;
  problem: string | null;
  updated_at: string | null;
}

/** POST …/test of a provider: its saved keys tried. */
export interface ConnectionTest {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  data: { ok: boolean; message: string } | undefined;
  mutate: () => void;
}

/**
 * The secrets typed anew, for the PUT body: one left as GET masked it, or
 * emptied, is left out and keeps its stored value.
 */
export function typedSecrets<K extends string>(draft: Record<K, string>, stored: Record<K, string | null>, keys: readonly K[]): Partial<Record<K, string>> {
  const typed: Partial<Record<K, string>> = {};
  for (const k of keys) {
    const v = draft[k].trim();
    if (v && v !== (stored[k] ?? '')) typed[k] = v;
  }
  return typed;
}

/** What only the API can tell from the stored row, told before it is asked: the first save needs every secret. */
export function missingSecrets<K extends string>(
  draft: Record<K, string>,
  stored: Record<K, string | null>,
  keys: readonly K[],
  labels: Record<K, string>,
): Partial<Record<K, string>> {
  const missing: Partial<Record<K, string>> = {};
  for (const k of keys) {
    if (!stored[k] && !draft[k].trim()) missing[k] = `${labels[k]} is required`;
  }
  return missing;
}

/** A secret as GET masked it ("••••abcd"): left as it is, the stored one is kept; typing replaces it. */
export function StoredSecretInput({
  label,
  stored,
  value,
  error,
  onChange,
}: {
  label: string;
  stored: string | null;
  value: string;
  error?: string;
  onChange: (value: string) => void;
}) {
  const kept = stored !== null && value === stored;
  return (
    <PasswordInput
      label={label}
      withAsterisk={!stored}
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      // Typing into the masked value replaces it rather than adding to it.
      onFocus={(e) => kept && e.currentTarget.select()}
      description={stored ? (kept ? `Saved (${stored}): leave it as it is to keep it` : 'A new value replaces the saved one') : undefined}
      error={error}
      autoComplete="new-password"
      styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
    />
  );
}

/** Ready, or why payment requests cannot be sent with it yet. */
export function ProviderReadiness({ setUp }: { setUp: ProviderSetUp }) {
  if (setUp.configured && setUp.ready) {
    return (
      <Group gap="xs">
        <Badge color="green" variant="light" radius="sm" miw="max-content">
          Ready
        </Badge>
        <Text size="sm" c="dimmed">
          Staff can ask customers to pay.
        </Text>
      </Group>
    );
  }
  if (setUp.ready || !setUp.problem) return null;
  return (
    <Alert color="yellow" variant="light" title="Payment requests cannot be sent yet" icon={<IconAlertTriangle size={18} />}>
      {setUp.problem}
    </Alert>
  );
}

/** An address the server gives (where results are posted, the host to give the provider), with what to do with it. */
export function CallbackAddress({ heading, value, testId, copyLabel, children }: { heading: string; value: string; testId: string; copyLabel?: string; children: ReactNode }) {
  return (
    <Stack gap={4}>
      <Text size="xs" c="dimmed" fw={600} tt="uppercase">
        {heading}
      </Text>
      <Group gap={6} wrap="nowrap">
        <Code fz="sm" style={{ wordBreak: 'break-all' }} data-testid={testId}>
          {value}
        </Code>
        {copyLabel ? (
          <CopyButton value={value} timeout={1500}>
            {({ copied, copy }) => (
              <Tooltip label={copied ? 'Copied' : 'Copy'} withArrow>
                <ActionIcon variant="subtle" color={copied ? 'teal' : 'gray'} onClick={copy} aria-label={copyLabel}>
                  {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
                </ActionIcon>
              </Tooltip>
            )}
          </CopyButton>
        ) : null}
      </Group>
      <Text size="xs" c="dimmed">
        {children}
      </Text>
    </Stack>
  );
}

/** What the provider answered the connection test, good or bad. */
export function ConnectionTestResult({ test }: { test: ConnectionTest }) {
  if (test.isError) return <ErrorAlert title={CONNECTION_TEST_FAILED} message={errorMessage(test.error, CONNECTION_TEST_FAILED)} />;
  if (!test.data) return null;
  return test.data.ok ? (
    <Alert color="green" variant="light" title="Connection works" icon={<IconCircleCheck size={18} />} role="status">
      {test.data.message}
    </Alert>
  ) : (
    <Alert color="red" variant="light" title={CONNECTION_TEST_FAILED} icon={<IconCircleX size={18} />} role="alert">
      {test.data.message}
    </Alert>
  );
}

/**
 * When it was saved, Test Connection and Save. The test tries the saved keys:
 * `unsaved` (the form differs from what is saved) says so.
 */
export function ProviderFormActions({ setUp, unsaved, test, saving, saveLabel }: { setUp: ProviderSetUp; unsaved: boolean; test: ConnectionTest; saving: boolean; saveLabel: string }) {
  return (
    <Group justify="space-between" gap="sm">
      <Text size="xs" c="dimmed">
        {setUp.updated_at ? `Last saved ${formatDate(setUp.updated_at, true)}` : 'Not saved yet'}
        {setUp.configured && unsaved ? ' · Test Connection tries the saved keys: save your changes first' : ''}
      </Text>
      <Group gap="sm">
        <Button
          variant="default"
          leftSection={<IconPlugConnected size={16} />}
          onClick={() => test.mutate()}
          loading={test.isPending}
          disabled={!setUp.configured}
          title={setUp.configured ? undefined : 'Save the keys first'}
        >
          Test Connection
        </Button>
        <Button type="submit" loading={saving}>
          {saveLabel}
        </Button>
      </Group>
    </Group>
  );
}
