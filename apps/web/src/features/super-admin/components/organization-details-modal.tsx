import { Badge, Button, Card, Center, Divider, Group, Loader, Modal, ScrollArea, SegmentedControl, SimpleGrid, Stack, Text, Textarea, Title } from '@mantine/core';
import { IconBan, IconBell, IconPlayerPlay, IconTrash } from '@tabler/icons-react';
import { phoneCountryOf, type OrgStatus } from '@kidogo/contracts';
import { useState, type ReactNode } from 'react';
import { formatDate } from '@/components/ui/date-text';
import { ErrorAlert } from '@/components/ui/error-alert';
import { errorMessage } from '@/lib/api-client';
import { useOrganization } from '../api/get-organization';
import { useOrganizationActivity } from '../api/get-organization-activity';
import { useNotifyOrganization } from '../api/notify-organization';
import { NOTIFICATION_LEVELS, type NotificationLevel, type OrganizationDetail } from '../api/types';
import { useConsoleFeedback } from './console-feedback';
import { OrgStatusBadge } from './org-status-badge';

/** "Uganda (+256)". */
const phoneCountryLabel = (code: string) => {
  const c = phoneCountryOf(code);
  return c ? `${c.country} (+${c.code})` : `+${code}`;
};

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed" fw={600} tt="uppercase" lts={0.3}>
        {label}
      </Text>
      <Text size="sm" fw={500} component="div" style={{ wordBreak: 'break-word' }}>
        {children}
      </Text>
    </Stack>
  );
}

/** Organization details: its real status, Quick Actions, its users and its recent activity from the audit log. */
export function OrganizationDetailsModal({
  organizationId,
  onClose,
  onChangeStatus,
  onDelete,
}: {
  organizationId: string | null;
  onClose: () => void;
  onChangeStatus: (org: OrganizationDetail, status: OrgStatus) => void;
  onDelete: (id: string) => void;
}) {
  const detail = useOrganization(organizationId);
  const activity = useOrganizationActivity(organizationId);
  return (
    <Modal opened={organizationId !== null} onClose={onClose} title="Organization Details" size="xl" centered>
      {detail.isPending ? (
        <Center py="xl" role="status" aria-label="Loading">
          <Loader size="sm" />
        </Center>
      ) : detail.isError ? (
        <ErrorAlert message={errorMessage(detail.error, 'Failed to load organization')} onRetry={() => void detail.refetch()} />
      ) : (
        <Stack gap="lg">
          <SimpleGrid cols={{ base: 1, xs: 2, sm: 3 }} spacing="md">
            <Field label="ID">
              <Text span ff="monospace" fw={600}>
                {detail.data.organization_id}
              </Text>
            </Field>
            <Field label="Name">{detail.data.name || '—'}</Field>
            <Field label="External Key">{detail.data.external_key || 'None'}</Field>
            <Field label="App Type">{detail.data.app}</Field>
            <Field label="Status">
              <Group gap={6}>
                <OrgStatusBadge status={detail.data.status} />
                {detail.data.status_changed_at ? (
                  <Text span size="xs" c="dimmed">
                    since {formatDate(detail.data.status_changed_at, true)}
                  </Text>
                ) : null}
              </Group>
            </Field>
            <Field label="Plan">{detail.data.plan_code || 'No plan'}</Field>
            <Field label="Phone Numbers">{phoneCountryLabel(detail.data.phone_country_code)}</Field>
          </SimpleGrid>
          {detail.data.disabled_reason && detail.data.status !== 'active' ? (
            <Text size="sm" c="dimmed">
              Reason shown to its users: {detail.data.disabled_reason}
            </Text>
          ) : null}
          <Group gap="xs">
            {Object.entries(detail.data.counts ?? {}).map(([k, v]) => (
              <Badge miw="max-content" key={k} variant="outline" color="gray" radius="sm" tt="none">
                {v} {v === 1 ? k.replace(/s$/, '') : k}
              </Badge>
            ))}
          </Group>

          <QuickActions detail={detail.data} onChangeStatus={onChangeStatus} onDelete={onDelete} />

          <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
            <Card padding="md" radius="md">
              <Title order={5} mb="xs">
                Users ({detail.data.users?.length ?? 0})
              </Title>
              <ScrollArea.Autosize mah={220} type="auto">
                {(detail.data.users ?? []).length === 0 ? (
                  <Text size="sm" c="dimmed">
                    No users
                  </Text>
                ) : (
                  <Stack gap={8}>
                    {detail.data.users.map((u) => (
                      <Group key={u.user_id} justify="space-between" wrap="nowrap" gap="xs">
                        <div style={{ minWidth: 0 }}>
                          <Text size="sm" fw={600} truncate>
                            {u.username}
                          </Text>
                          <Text size="xs" c="dimmed" truncate>
                            {u.email || 'No email'}
                          </Text>
                        </div>
                        <Badge miw="max-content" variant="light" radius="sm">
                          {u.role}
                        </Badge>
                      </Group>
                    ))}
                  </Stack>
                )}
              </ScrollArea.Autosize>
            </Card>
            <Card padding="md" radius="md">
              <Title order={5} mb="xs">
                Recent Activity
              </Title>
              <ScrollArea.Autosize mah={220} type="auto">
                {activity.isPending ? (
                  <Loader size="xs" />
                ) : activity.isError ? (
                  <Text size="sm" c="red">
                    {errorMessage(activity.error, 'Failed to load activity')}
                  </Text>
                ) : activity.data.length === 0 ? (
                  <Text size="sm" c="dimmed">
                    No recent activity
                  </Text>
                ) : (
                  <Stack gap={8}>
                    {activity.data.map((a) => (
                      <div key={a.id}>
                        <Text size="sm">{a.description}</Text>
                        <Text size="xs" c="dimmed">
                          {formatDate(a.timestamp, true)}
                          {a.actor ? ` · ${a.actor}` : ''}
                        </Text>
                      </div>
                    ))}
                  </Stack>
                )}
              </ScrollArea.Autosize>
            </Card>
          </SimpleGrid>
        </Stack>
      )}
    </Modal>
  );
}

function QuickActions({
  detail,
  onChangeStatus,
  onDelete,
}: {
  detail: OrganizationDetail;
  onChangeStatus: (org: OrganizationDetail, status: OrgStatus) => void;
  onDelete: (id: string) => void;
}) {
  const feedback = useConsoleFeedback();
  const notify = useNotifyOrganization();
  const [composing, setComposing] = useState(false);
  const [message, setMessage] = useState('');
  const [level, setLevel] = useState<NotificationLevel>('info');
  const active = (detail.status ?? 'active') === 'active';

  const send = () => {
    if (!message.trim()) return;
    notify.mutate(
      { id: detail.organization_id, message: message.trim(), level },
      {
        onSuccess: () => {
          feedback.success(`Notification sent to ${detail.organization_id}`);
          setMessage('');
          setComposing(false);
          notify.reset();
        },
        onError: (e) => feedback.error(errorMessage(e, 'Failed to send notification')),
      },
    );
  };

  return (
    <Stack gap="sm">
      <Divider label="Quick Actions" labelPosition="left" />
      <Group gap="sm">
        {active ? (
          <Button color="yellow" variant="light" leftSection={<IconBan size={16} />} onClick={() => onChangeStatus(detail, 'suspended')}>
            Suspend Organization
          </Button>
        ) : (
          <Button color="green" variant="light" leftSection={<IconPlayerPlay size={16} />} onClick={() => onChangeStatus(detail, 'active')}>
            Activate Organization
          </Button>
        )}
        <Button variant="light" leftSection={<IconBell size={16} />} onClick={() => setComposing((v) => !v)}>
          Send Notification
        </Button>
        <Button color="red" variant="light" leftSection={<IconTrash size={16} />} onClick={() => onDelete(detail.organization_id)}>
          Delete Organization
        </Button>
      </Group>
      {composing ? (
        <Card padding="sm" radius="md" bg="var(--kidogo-section-bg)">
          <Stack gap="xs">
            <Textarea
              label="Notification message"
              placeholder="What should this organization's users see?"
              rows={3}
              maxLength={1000}
              value={message}
              onChange={(e) => setMessage(e.currentTarget.value)}
              data-autofocus
            />
            <Group justify="space-between" wrap="wrap">
              <SegmentedControl
                size="xs"
                aria-label="Notification level"
                value={level}
                onChange={(v) => setLevel(v as NotificationLevel)}
                data={NOTIFICATION_LEVELS.map((l) => ({ value: l, label: l.charAt(0).toUpperCase() + l.slice(1) }))}
              />
              <Group gap="xs">
                <Button size="xs" variant="default" onClick={() => setComposing(false)} disabled={notify.isPending}>
                  Cancel
                </Button>
                <Button size="xs" onClick={send} loading={notify.isPending} disabled={!message.trim()}>
                  Send
                </Button>
              </Group>
            </Group>
          </Stack>
        </Card>
      ) : null}
    </Stack>
  );
}
