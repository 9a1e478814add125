import { Button, Card, Group, NativeSelect, PasswordInput, SegmentedControl, SimpleGrid, Skeleton, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { IconMessage2 } from '@tabler/icons-react';
import { DEFAULT_TEXT_NAME, TEXT_NAME_MAX, ZTextNameSchema } from '@kidogo/contracts';
import { useState } from 'react';
import { formatDate } from '@/components/ui/date-text';
import { ErrorAlert } from '@/components/ui/error-alert';
import { apiFieldErrors, errorMessage } from '@/lib/api-client';
import { toast } from '@/lib/notify';
import { useSmsProvider } from '../api/get-sms-provider';
import { useUpdateSmsProvider } from '../api/update-sms-provider';
import type { SmsProvider, SmsProviderConfig, SmsProviderInput, SmsProviderName } from '../api/types';

export const SAVE_FAILED = 'Failed to save SMS provider settings';

/** What happens to token replies when the organization chooses no provider of its own. */
const FALLBACK_TEXT: Record<SmsProvider['fallback'], string> = {
  none: 'Without a provider, token replies stay queued: this server has no default SMS provider.',
  africastalking: "Without a provider of your own, token replies go through this server's Africa's Talking account.",
  webhook: "Without a provider of your own, token replies go through this server's SMS webhook.",
};

interface Draft {
  provider: SmsProviderName;
  username: string;
  api_key: string;
  sender_id: string;
  base_url: string;
  url: string;
  secret: string;
  is_active: boolean;
  reply_language: SmsProvider['reply_language'];
  /** The name customer texts begin with; empty: Kidogo. */
  text_name: string;
}

function draftOf(s: SmsProvider): Draft {
  const c = s.config ?? {};
  return {
    provider: s.provider,
    username: c.username ?? '',
    api_key: '',
    sender_id: c.sender_id ?? '',
    base_url: c.base_url ?? '',
    url: c.url ?? '',
    secret: '',
    is_active: s.is_active,
    reply_language: s.reply_language ?? 'en',
    text_name: s.text_name ?? '',
  };
}

/** The PUT body: only the chosen provider's fields; a blank secret is left out so the stored one stays. */
export function toSmsInput(d: Draft): SmsProviderInput {
  const config: SmsProviderConfig = {};
  const put = (k: keyof SmsProviderConfig, v: string) => {
    if (v.trim()) config[k] = v.trim();
  };
  if (d.provider === 'africastalking') {
    put('username', d.username);
    put('api_key', d.api_key);
    put('sender_id', d.sender_id);
    put('base_url', d.base_url);
  } else if (d.provider === 'sms_webhook') {
    put('url', d.url);
    put('secret', d.secret);
  }
  // Empty puts Kidogo back (null).
  return { provider: d.provider, config, is_active: d.is_active, reply_language: d.reply_language, text_name: d.text_name.trim() || null };
}

function validate(d: Draft): Record<string, string> {
  const errors: Record<string, string> = {};
  const isUrl = (v: string) => /^https?:\/\/\S+$/i.test(v.trim());
  if (d.provider === 'africastalking') {
    if (!d.username.trim()) errors.username = 'Username is required';
    if (d.base_url.trim() && !isUrl(d.base_url)) errors.base_url = 'Enter an http(s) URL';
  }
  if (d.provider === 'sms_webhook') {
    if (!d.url.trim()) errors.url = 'Webhook URL is required';
    else if (!isUrl(d.url)) errors.url = 'Enter an http(s) URL';
  }
  const name = d.text_name.trim();
  if (name) {
    const checked = ZTextNameSchema.safeParse(name);
    if (!checked.success) errors.text_name = `Name in texts ${checked.error.issues[0]!.message}`;
  }
  return errors;
}

function SmsProviderForm({ settings }: { settings: SmsProvider }) {
  const [draft, setDraft] = useState<Draft>(() => draftOf(settings));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const save = useUpdateSmsProvider();
  const set = <K extends keyof Draft>(k: K, v: Draft[K]) => {
    setDraft((d) => ({ ...d, [k]: v }));
    setErrors((e) => ({ ...e, [k]: '' }));
  };
  const storedSecret = (k: 'api_key' | 'secret') => settings.config?.[k] ?? null;

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const found = validate(draft);
    setErrors(found);
    if (Object.values(found).some(Boolean) || save.isPending) return;
    save.mutate(toSmsInput(draft), {
      onSuccess: (reply) => {
        setDraft(draftOf(reply));
        toast.success('SMS provider settings saved');
      },
      onError: (error) => {
        const fields = apiFieldErrors(error);
        setErrors(Object.fromEntries(Object.entries(fields).map(([k, v]) => [k.replace(/^config\./, ''), v])));
      },
    });
  };

  return (
    <form onSubmit={submit} noValidate aria-label="SMS provider">
      <Stack gap="md">
        {save.isError ? <ErrorAlert title={SAVE_FAILED} message={errorMessage(save.error, SAVE_FAILED)} /> : null}
        <SegmentedControl
          aria-label="Provider"
          value={draft.provider}
          onChange={(v) => {
            set('provider', v as SmsProviderName);
            // Choosing a provider where there was none means sending through it (the API reads 'none' as inactive).
            if (draft.provider === 'none' && v !== 'none') set('is_active', true);
          }}
          data={[
            { value: 'none', label: 'None' },
            { value: 'africastalking', label: "Africa's Talking" },
            { value: 'sms_webhook', label: 'SMS Webhook' },
          ]}
          fullWidth
          // On a phone the three names do not fit on one line: each wraps rather than being cut off.
          styles={{
            control: { display: 'flex' },
            label: { whiteSpace: 'normal', flex: 1, display: 'flex', alignItems: 'center', justifyContent: 'center' },
          }}
        />
        {draft.provider === 'none' ? (
          <Text size="sm" c="dimmed">
            {FALLBACK_TEXT[settings.fallback] ?? FALLBACK_TEXT.none}
          </Text>
        ) : null}
        {draft.provider === 'africastalking' ? (
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <TextInput label="Username" withAsterisk value={draft.username} onChange={(e) => set('username', e.currentTarget.value)} error={errors.username} autoComplete="off" />
            <PasswordInput
              label="API Key"
              placeholder={storedSecret('api_key') ?? 'Your Africa\'s Talking API key'}
              description={storedSecret('api_key') ? 'Leave empty to keep the saved key' : undefined}
              value={draft.api_key}
              onChange={(e) => set('api_key', e.currentTarget.value)}
              error={errors.api_key}
              autoComplete="new-password"
            />
            <TextInput label="Sender ID" placeholder="Optional" value={draft.sender_id} onChange={(e) => set('sender_id', e.currentTarget.value)} error={errors.sender_id} />
            <TextInput
              label="Base URL"
              placeholder="Optional, e.g. the sandbox"
              value={draft.base_url}
              onChange={(e) => set('base_url', e.currentTarget.value)}
              error={errors.base_url}
            />
          </SimpleGrid>
        ) : null}
        {draft.provider === 'sms_webhook' ? (
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <TextInput
              label="Webhook URL"
              withAsterisk
              placeholder="https://sms.example.com/send"
              value={draft.url}
              onChange={(e) => set('url', e.currentTarget.value)}
              error={errors.url}
            />
            <PasswordInput
              label="Signing Secret"
              placeholder={storedSecret('secret') ?? 'Optional'}
              description={storedSecret('secret') ? 'Leave empty to keep the saved secret' : 'Signs each request (X-Kidogo-Signature)'}
              value={draft.secret}
              onChange={(e) => set('secret', e.currentTarget.value)}
              error={errors.secret}
              autoComplete="new-password"
            />
          </SimpleGrid>
        ) : null}
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <NativeSelect
            label="Reply Language"
            description="The language of the SMS that gives customers their token"
            data={[
              { value: 'en', label: 'English' },
              { value: 'sw', label: 'Kiswahili' },
              { value: 'fr', label: 'French' },
            ]}
            value={draft.reply_language}
            onChange={(e) => set('reply_language', e.currentTarget.value as Draft['reply_language'])}
          />
          <TextInput
            label="Name in Texts"
            description={`What texts to customers begin with: "${draft.text_name.trim() || DEFAULT_TEXT_NAME}: Hi Grace, payment of …". Empty: ${DEFAULT_TEXT_NAME}.`}
            placeholder={DEFAULT_TEXT_NAME}
            maxLength={TEXT_NAME_MAX}
            value={draft.text_name}
            onChange={(e) => set('text_name', e.currentTarget.value)}
            error={errors.text_name}
          />
        </SimpleGrid>
        {draft.provider !== 'none' ? (
          <Switch
            label="Send token replies through this provider"
            checked={draft.is_active}
            onChange={(e) => set('is_active', e.currentTarget.checked)}
          />
        ) : null}
        <Group justify="space-between">
          <Text size="xs" c="dimmed">
            {settings.updated_at ? `Last saved ${formatDate(settings.updated_at, true)}` : 'Not saved yet'}
          </Text>
          <Button type="submit" loading={save.isPending}>
            Save SMS Settings
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** How the organization's outgoing SMS (token replies to payers) are delivered. */
export function SmsProviderCard() {
  const settings = useSmsProvider(true);
  return (
    <Card padding="lg" component="section" aria-label="SMS Provider">
      <Group gap="sm" mb={4}>
        <IconMessage2 size={20} />
        <Title order={4}>SMS Provider</Title>
      </Group>
      <Text size="sm" c="dimmed" mb="md">
        Each payment is answered by SMS with its token. Choose how those messages are sent.
      </Text>
      {settings.isError ? (
        <ErrorAlert message={errorMessage(settings.error, 'Failed to load SMS provider settings')} onRetry={() => void settings.refetch()} />
      ) : settings.isPending ? (
        <Stack gap="sm">
          <Skeleton h={36} />
          <Skeleton h={36} />
        </Stack>
      ) : (
        <SmsProviderForm key={settings.data.updated_at ?? 'new'} settings={settings.data} />
      )}
    </Card>
  );
}
