import { Badge, Card, Group, Stack, Text } from '@mantine/core';
import type { CampaignReply } from '../api/types';
const count = (n: number) => n.toLocaleString();

/** "1 text", "1,234 texts". */
export const texts = (n: number) => (n === 1 ? '1 text' : `${count(n)} texts`);

/**
 * What a bulk text would do, as the server counted it (dry_run): how many
 * texts (one per phone number) and SMS, whom it passes over, and the first
 * three texts as they go out.
 */
export function CampaignPreview({ reply }: { reply: CampaignReply }) {
  const passedOver = reply.skipped_no_phone + reply.skipped_opted_out + reply.skipped_same_phone;
  return (
    <Card withBorder padding="sm" aria-label="Preview" component="section">
      <Stack gap="xs">
        <Group justify="space-between" gap="xs">
          <Text size="sm" fw={600}>
            Preview: {reply.audience_text}
          </Text>
          <Group gap={6}>
            <Badge variant="light">{texts(reply.recipients)}</Badge>
            <Badge variant="light" color="gray">
              {count(reply.parts)} SMS
            </Badge>
          </Group>
        </Group>
        {passedOver ? (
          <Group gap={6} aria-label="Passed over">
            <Text size="xs" c="dimmed">
              Passed over:
            </Text>
            {reply.skipped_no_phone ? (
              <Badge variant="light" color="yellow">
                {count(reply.skipped_no_phone)} without a phone
              </Badge>
            ) : null}
            {reply.skipped_opted_out ? (
              <Badge variant="light" color="gray">
                {count(reply.skipped_opted_out)} texted STOP
              </Badge>
            ) : null}
            {reply.skipped_same_phone ? (
              <Badge variant="light" color="gray">
                {count(reply.skipped_same_phone)} on a phone number texted already
              </Badge>
            ) : null}
          </Group>
        ) : null}
        {reply.sample.length === 0 ? (
          <Text size="sm">Nobody to text: no customer of this group has a phone number that takes texts.</Text>
        ) : (
          <Stack gap="xs">
            {reply.sample.map((s) => (
              <div key={s.customer_id}>
                <Text size="xs" c="dimmed">
                  To {s.customer_name} · {s.recipient_number}
                  {s.parts > 1 ? ` · ${s.parts} SMS` : ''}
                </Text>
                <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                  {s.text}
                </Text>
              </div>
            ))}
            {reply.recipients > reply.sample.length ? (
              <Text size="xs" c="dimmed">
                and {texts(reply.recipients - reply.sample.length)} more
              </Text>
            ) : null}
          </Stack>
        )}
      </Stack>
    </Card>
  );
}
