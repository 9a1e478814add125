import { Alert, Badge, Button, Card, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconMessages, IconSend } from '@tabler/icons-react';
import { BAND_SMS_PLACEHOLDERS, COLLECTION_BUCKET_LABELS, NO_AGENT, ZBandSmsSchema, type BandSmsPlaceholder } from '@kidogo/contracts';
import { useRef, useState } from 'react';
import { ErrorAlert } from '@/components/ui/error-alert';
import { errorMessage } from '@/lib/api-client';
import { toast } from '@/lib/notify';
import { useBandSmsPreview, useTextBand, type BandTarget } from '../api/text-band';
import type { AgentFilter, CollectionBucketFilter } from '../api/types';
import { agentPhrase } from './agent-filter';

export const DEFAULT_BAND_TEXT =
  'Habari {name}, your device {serial} has been off for {days} days. Pay {daily_price} to account {serial} to switch it back on.';

const bandName = (bucket: CollectionBucketFilter) =>
  bucket === 'all' ? 'every customer out of credit' : `the customers ${COLLECTION_BUCKET_LABELS[bucket]} without credit`;

/** "Text the customers 8–30 days without credit", and whose when one agent's customers are shown: "— agent AGT-001". */
export const bandTitle = ({ bucket, agent }: BandTarget) => `Text ${bandName(bucket)}${agent === null ? '' : ` — ${agentPhrase(agent)}`}`;

/** The text's own problem (an unknown placeholder, too long), as the API would word it; null when it is fine. */
function textProblem(text: string): string | null {
  const result = ZBandSmsSchema.safeParse({ bucket: 'all', text });
  if (result.success) return null;
  return result.error.issues.find((i) => i.path[0] === 'text')?.message ?? null;
}

/**
 * Text a whole band of Collections at once: one message, filled in for each
 * device (the customer's name, the serial to pay to, the days without credit,
 * what is left to pay), previewed on the real customers before anything is
 * sent, then sent after a last confirmation.
 */
export function TextBandModal({
  bucket,
  agent,
  opened,
  onClose,
}: {
  bucket: CollectionBucketFilter;
  /** Only this sales agent's customers (NO_AGENT: those without one); null for every agent's. */
  agent: AgentFilter;
  opened: boolean;
  onClose: () => void;
}) {
  const send = useTextBand();
  const close = () => {
    if (send.isPending) return;
    send.reset();
    onClose();
  };
  return (
    <Modal opened={opened} onClose={close} title={bandTitle({ bucket, agent })} size="lg">
      {opened ? <BandForm target={{ bucket, agent }} send={send} onCancel={close} onDone={onClose} /> : null}
    </Modal>
  );
}

function BandForm({
  target,
  send,
  onCancel,
  onDone,
}: {
  target: BandTarget;
  send: ReturnType<typeof useTextBand>;
  onCancel: () => void;
  onDone: () => void;
}) {
  const [text, setText] = useState(DEFAULT_BAND_TEXT);
  const [confirming, setConfirming] = useState(false);
  const area = useRef<HTMLTextAreaElement>(null);
  const [settled] = useDebouncedValue(text.trim(), 400);
  const problem = textProblem(text.trim());
  const preview = useBandSmsPreview(target, settled, problem === null);
  const current = preview.data && settled === text.trim() ? preview.data : null;

  const insert = (key: BandSmsPlaceholder) => {
    const el = area.current;
    const at = el?.selectionStart ?? text.length;
    const next = `${text.slice(0, at)}{${key}}${text.slice(el?.selectionEnd ?? at)}`;
    setText(next);
    setConfirming(false);
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(at + key.length + 2, at + key.length + 2);
    });
  };
  const submit = () =>
    send.mutate(
      { ...target, text: text.trim() },
      {
        onSuccess: (reply) => {
          toast.success(reply.message);
          send.reset();
          onDone();
        },
        onError: () => setConfirming(false),
      },
    );

  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        One SMS to each device of the band whose customer has a phone number
        {target.agent === null ? '' : target.agent === NO_AGENT ? ' (only the customers without an agent)' : ` (only the customers of agent ${target.agent})`},
        filled in for that device, sent through your SMS provider and listed in each device&apos;s Message History with your name.
      </Text>
      <Textarea
        ref={area}
        label="Message"
        withAsterisk
        autosize
        minRows={3}
        value={text}
        onChange={(e) => {
          setText(e.currentTarget.value);
          setConfirming(false);
        }}
        error={text.trim() ? problem : 'Write the message'}
        disabled={send.isPending}
      />
      <div>
        <Text size="xs" c="dimmed" mb={4}>
          Insert a placeholder, filled in for each customer:
        </Text>
        <Group gap={6}>
          {(Object.keys(BAND_SMS_PLACEHOLDERS) as BandSmsPlaceholder[]).map((key) => (
            <Button key={key} size="compact-xs" variant="light" title={BAND_SMS_PLACEHOLDERS[key]} onClick={() => insert(key)} disabled={send.isPending}>
              {`{${key}}`}
            </Button>
          ))}
        </Group>
      </div>

      <Card withBorder padding="sm" aria-label="Preview" component="section">
        <Group justify="space-between" mb="xs">
          <Text size="sm" fw={600}>
            Preview
          </Text>
          {current ? (
            <Group gap={6}>
              <Badge variant="light">{current.recipients.toLocaleString()} customers</Badge>
              <Badge variant="light" color="gray">
                {current.parts.toLocaleString()} SMS
              </Badge>
              {current.skipped_no_phone ? (
                <Badge variant="light" color="yellow">
                  {current.skipped_no_phone.toLocaleString()} without a phone
                </Badge>
              ) : null}
              {current.skipped_opted_out ? (
                <Badge variant="light" color="gray">
                  {current.skipped_opted_out.toLocaleString()} asked for no texts
                </Badge>
              ) : null}
              {current.skipped_open_ticket ? (
                <Badge variant="light" color="orange">
                  {current.skipped_open_ticket.toLocaleString()} being repaired
                </Badge>
              ) : null}
            </Group>
          ) : null}
        </Group>
        {problem ? (
          <Text size="sm" c="dimmed">
            Fix the message to see it filled in.
          </Text>
        ) : preview.isError ? (
          <ErrorAlert message={errorMessage(preview.error, 'Failed to preview the message')} />
        ) : !current ? (
          <Text size="sm" c="dimmed">
            Filling it in for the band…
          </Text>
        ) : current.sample.length === 0 ? (
          <Text size="sm">Nobody to text: no customer of this band has a phone number.</Text>
        ) : (
          <Stack gap="xs">
            {current.sample.map((s) => (
              <div key={s.serial_number}>
                <Text size="xs" c="dimmed">
                  To {s.customer_name} · {s.recipient_number} · {s.serial_number}
                  {s.parts > 1 ? ` · ${s.parts} SMS` : ''}
                </Text>
                <Text size="sm">{s.text}</Text>
              </div>
            ))}
            {current.recipients > current.sample.length ? (
              <Text size="xs" c="dimmed">
                and {(current.recipients - current.sample.length).toLocaleString()} more
              </Text>
            ) : null}
          </Stack>
        )}
      </Card>

      {send.isError ? <ErrorAlert message={errorMessage(send.error, 'Failed to send the messages')} /> : null}
      {confirming && current ? (
        <Alert color="yellow" title={`Send ${current.recipients.toLocaleString()} SMS now?`}>
          They go out at once through your SMS provider ({current.parts.toLocaleString()} SMS billed) and cannot be called back.
        </Alert>
      ) : null}
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={onCancel} disabled={send.isPending}>
          Cancel
        </Button>
        {confirming && current ? (
          <Button color="yellow" leftSection={<IconSend size={16} />} loading={send.isPending} onClick={submit}>
            Yes, Send {current.recipients.toLocaleString()} SMS
          </Button>
        ) : (
          <Button leftSection={<IconMessages size={16} />} disabled={!current || current.recipients === 0 || problem !== null} onClick={() => setConfirming(true)}>
            {current ? `Send to ${current.recipients.toLocaleString()} Customers` : 'Send'}
          </Button>
        )}
      </Group>
    </Stack>
  );
}
