import { Anchor, Button, Stack, Text } from '@mantine/core';
import { IconMessages, IconPlayerStop } from '@tabler/icons-react';
import { useState } from 'react';
import { ConfirmModal } from '@/components/ui/confirm-modal';
import { DataTable, type Column } from '@/components/ui/data-table';
import { DateText, formatDate } from '@/components/ui/date-text';
import { errorMessage } from '@/lib/api-client';
import { toast } from '@/lib/notify';
import { useCancelSmsCampaign } from '../api/cancel-sms-campaign';
import { isUnderway } from '../api/get-sms-campaigns';
import type { Campaign } from '../api/types';
import { CampaignStatusBadge } from './campaign-status-badge';
import { CampaignTextsDrawer } from './campaign-texts-drawer';

export const CANCEL_FAILED = 'Failed to cancel the bulk SMS';

/** A text longer than this is cut to two lines, with More to read it all (a phone has no hover). */
const LONG_TEXT = 90;

/** When it goes or went out, and who made it (and who cancelled it). */
function WhenCell({ c }: { c: Campaign }) {
  return (
    <Stack gap={2}>
      <DateText value={c.send_at} withTime />
      <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
        by {c.created_by}
      </Text>
      {c.cancelled_at ? (
        <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
          cancelled {formatDate(c.cancelled_at, true)}
          {c.cancelled_by ? ` by ${c.cancelled_by}` : ''}
        </Text>
      ) : null}
    </Stack>
  );
}

/** The text, two lines of it with the whole on hover and behind More. */
function TextCell({ c }: { c: Campaign }) {
  const [open, setOpen] = useState(false);
  const long = c.text.length > LONG_TEXT;
  return (
    <Stack gap={2} maw={360} align="flex-start">
      <Text size="sm" lineClamp={open ? undefined : 2} title={c.text} style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
        {c.text}
      </Text>
      {long ? (
        <Anchor component="button" type="button" size="xs" onClick={() => setOpen((o) => !o)} aria-expanded={open}>
          {open ? 'Less' : 'More'}
        </Anchor>
      ) : null}
    </Stack>
  );
}

/** What became of the texts: sent, failed, still queued, cancelled (those that are any). */
function DeliveryCell({ c }: { c: Campaign }) {
  const { sent, failed, queued, cancelled } = c.delivery;
  const figures = [
    { n: sent, label: 'sent', color: 'green' },
    { n: failed, label: 'failed', color: 'red' },
    { n: queued, label: 'queued', color: undefined },
    { n: cancelled, label: 'cancelled', color: 'dimmed' },
  ].filter((f) => f.n > 0 || (f.label === 'sent' && c.recipients > 0));
  if (!figures.length) {
    return (
      <Text span size="sm" c="dimmed">
        —
      </Text>
    );
  }
  return (
    <Stack gap={0}>
      {figures.map((f) => (
        <Text key={f.label} size="sm" c={f.color} style={{ whiteSpace: 'nowrap' }}>
          {f.n.toLocaleString()} {f.label}
        </Text>
      ))}
    </Stack>
  );
}

function columnsFor(onTexts: (c: Campaign) => void, onCancel: (c: Campaign) => void): Column<Campaign>[] {
  return [
    { key: 'when', header: 'When', render: (c) => <WhenCell c={c} /> },
    {
      key: 'audience',
      header: 'Audience',
      render: (c) => (
        <Text size="sm" maw={240}>
          {c.audience_text}
        </Text>
      ),
    },
    { key: 'text', header: 'Text', render: (c) => <TextCell c={c} /> },
    {
      key: 'recipients',
      header: 'Recipients',
      align: 'right',
      render: (c) => (
        <Stack gap={0} align="flex-end">
          <Text size="sm">{c.recipients.toLocaleString()}</Text>
          <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
            {c.parts.toLocaleString()} SMS
          </Text>
        </Stack>
      ),
    },
    { key: 'delivery', header: 'Delivered', render: (c) => <DeliveryCell c={c} /> },
    { key: 'status', header: 'Status', render: (c) => <CampaignStatusBadge status={c.status} /> },
    {
      key: 'actions',
      header: '',
      align: 'right',
      render: (c) => (
        <Stack gap={4} align="flex-end">
          <Button
            size="compact-sm"
            variant="subtle"
            leftSection={<IconMessages size={14} />}
            aria-label={`Texts of the bulk SMS of ${formatDate(c.send_at, true)}`}
            onClick={() => onTexts(c)}
          >
            Texts
          </Button>
          {isUnderway(c) ? (
            <Button
              size="compact-sm"
              variant="light"
              color="red"
              leftSection={<IconPlayerStop size={14} />}
              aria-label={`Cancel the bulk SMS of ${formatDate(c.send_at, true)}`}
              onClick={() => onCancel(c)}
            >
              Cancel
            </Button>
          ) : null}
        </Stack>
      ),
    },
  ];
}

/** The bulk texts sent and to be sent, with their Texts (a drawer) and a Cancel for those not all out yet. */
export function CampaignsTable({
  rows,
  loading,
  error,
  onRetry,
}: {
  rows: Campaign[] | undefined;
  loading: boolean;
  error: string | null;
  onRetry: () => void;
}) {
  const [cancelling, setCancelling] = useState<Campaign | null>(null);
  // The bulk SMS whose texts are open: as the list reads it now (its status and counts move), else as it was clicked.
  const [textsOf, setTextsOf] = useState<Campaign | null>(null);
  const textsCampaign = textsOf ? (rows?.find((c) => c.campaign_id === textsOf.campaign_id) ?? textsOf) : null;
  const cancel = useCancelSmsCampaign();
  const close = () => {
    if (cancel.isPending) return;
    cancel.reset();
    setCancelling(null);
  };
  const confirm = () => {
    if (!cancelling) return;
    cancel.mutate(cancelling.campaign_id, {
      onSuccess: (reply) => {
        toast.success(reply.message);
        cancel.reset();
        setCancelling(null);
      },
    });
  };
  return (
    <>
      <DataTable
        caption="Sent and scheduled"
        columns={columnsFor(setTextsOf, setCancelling)}
        rows={rows}
        rowKey={(c) => c.campaign_id}
        loading={loading}
        error={error}
        onRetry={onRetry}
        emptyText="No bulk SMS yet"
        emptyHint="A bulk SMS sent or set to go out is listed here, with what became of its texts."
        minWidth={940}
      />
      <CampaignTextsDrawer campaign={textsCampaign} onClose={() => setTextsOf(null)} />
      <ConfirmModal
        opened={cancelling !== null}
        onClose={close}
        onConfirm={confirm}
        loading={cancel.isPending}
        title="Cancel Bulk SMS"
        confirmLabel="Cancel Bulk SMS"
        cancelLabel="Keep It"
        error={cancel.isError ? errorMessage(cancel.error, CANCEL_FAILED) : null}
        errorTitle={CANCEL_FAILED}
        message={
          cancelling ? (
            <Stack gap="xs">
              <Text size="sm" fw={600}>
                Cancel the bulk SMS to {cancelling.audience_text} ({formatDate(cancelling.send_at, true)})?
              </Text>
              <Text size="sm">
                {cancelling.status === 'scheduled'
                  ? `None of its ${cancelling.recipients.toLocaleString()} texts goes out.`
                  : `Its ${cancelling.delivery.queued.toLocaleString()} texts still queued do not go out; those sent already cannot be called back.`}
              </Text>
            </Stack>
          ) : null
        }
      />
    </>
  );
}
