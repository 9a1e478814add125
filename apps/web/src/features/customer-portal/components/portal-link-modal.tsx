import { Alert, Button, CopyButton, Group, Modal, Paper, Stack, Text, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy, IconLink, IconMessage } from '@tabler/icons-react';
import { PORTAL_LINK_DAYS, type PortalLinkCreated } from '@kidogo/contracts';
import { useState } from 'react';
import { DateText } from '@/components/ui/date-text';
import { ErrorAlert } from '@/components/ui/error-alert';
import { useSendCustomerSms } from '@/features/customer-sms/api/send-sms';
import { errorMessage } from '@/lib/api-client';
import { toast } from '@/lib/notify';
import { portalUrl, useCreatePortalLink, usePortalLink, useRevokePortalLink } from '../api/portal';

export const PORTAL_TEXTS = {
  intro:
    "The customer's own page shows them, without signing in, each device's credit and what is left to pay, their last payments and the last codes their device takes: one lost from an SMS can be typed again.",
  failed: 'Failed to make the link',
  smsFailed: 'Failed to send the link',
} as const;

/** The SMS that hands the customer their link. */
export const portalSms = (firstName: string, url: string) =>
  `Hello ${firstName}, see your device's credit, what is left to pay and your codes here: ${url} (works for ${PORTAL_LINK_DAYS} days)`;

export interface PortalTarget {
  customerId: number;
  customerName: string;
  /** The customer asked for no texts (STOP): the link is copied, not sent. */
  optedOut: boolean;
}

/**
 * Customer's Page: make a link to the customer's own page (their last link
 * stops), copy it or text it to them, and stop it. The link is shown once,
 * when made: Kidogo keeps only a fingerprint of it.
 */
export function PortalLinkModal({ target, onClose }: { target: PortalTarget | null; onClose: () => void }) {
  return (
    <Modal opened={target !== null} onClose={onClose} title="Customer's Page" size="lg" centered>
      {target ? <PortalLinkBody key={target.customerId} target={target} onClose={onClose} /> : null}
    </Modal>
  );
}

function PortalLinkBody({ target, onClose }: { target: PortalTarget; onClose: () => void }) {
  const state = usePortalLink(target.customerId);
  const create = useCreatePortalLink(target.customerId);
  const revoke = useRevokePortalLink(target.customerId);
  const sms = useSendCustomerSms();
  const [made, setMade] = useState<PortalLinkCreated | null>(null);
  const link = made?.link ?? state.data?.link ?? null;
  const url = made ? portalUrl(made) : null;
  const firstName = target.customerName.trim().split(/\s+/)[0] ?? '';

  const make = () =>
    create.mutate(undefined, {
      onSuccess: (r) => {
        if (!r) return;
        setMade(r);
        toast.success(r.message);
      },
    });
  const send = () =>
    url &&
    sms.mutate(
      { customerId: target.customerId, text: portalSms(firstName, url) },
      { onSuccess: (r) => toast.success(r?.message || `Link sent to ${target.customerName}`) },
    );
  const stop = () =>
    revoke.mutate(undefined, {
      onSuccess: (r) => {
        setMade(null);
        toast.success(r?.message || 'Link stopped');
      },
    });

  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        {PORTAL_TEXTS.intro}
      </Text>
      {state.isError ? <ErrorAlert message={errorMessage(state.error, 'Failed to read the link')} onRetry={() => void state.refetch()} /> : null}
      {link ? (
        <Paper withBorder p="sm" radius="md" bg="var(--kidogo-section-bg)" aria-label="Current link">
          <Text size="sm">
            Made by {link.created_by} on <DateText value={link.created_at} withTime />;{' '}
            {link.expired ? (
              <Text span c="red" fw={600}>
                expired <DateText value={link.expires_at} />
              </Text>
            ) : (
              <>
                works until <DateText value={link.expires_at} />
              </>
            )}
            .
          </Text>
          <Text size="sm" c="dimmed">
            {link.views === 0 ? (
              'Not opened yet.'
            ) : (
              <>
                Opened {link.views === 1 ? 'once' : `${link.views} times`}, last on <DateText value={link.last_viewed_at} withTime />.
              </>
            )}
          </Text>
        </Paper>
      ) : state.isSuccess ? (
        <Text size="sm">{target.customerName} has no link yet.</Text>
      ) : null}

      {url ? (
        <Stack gap="xs">
          <Alert color="green" variant="light" icon={<IconLink size={18} />} title="The link">
            <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }} data-testid="portal-url">
              {url}
            </Text>
            <Text size="xs" c="dimmed" mt={4}>
              Copy or send it now: it is not shown again. Making a new one stops this one.
            </Text>
          </Alert>
          <Group gap="xs">
            <CopyButton value={url}>
              {({ copied, copy }) => (
                <Button variant="default" leftSection={copied ? <IconCheck size={16} /> : <IconCopy size={16} />} onClick={copy}>
                  {copied ? 'Copied' : 'Copy Link'}
                </Button>
              )}
            </CopyButton>
            {target.optedOut ? (
              <Tooltip label="Asked for no texts (STOP): copy the link and give it another way" withArrow>
                <Button variant="default" leftSection={<IconMessage size={16} />} data-disabled onClick={(e) => e.preventDefault()}>
                  Send by SMS
                </Button>
              </Tooltip>
            ) : (
              <Button variant="default" leftSection={<IconMessage size={16} />} onClick={send} loading={sms.isPending} disabled={sms.isSuccess}>
                {sms.isSuccess ? 'Sent' : 'Send by SMS'}
              </Button>
            )}
          </Group>
          {sms.isError ? <ErrorAlert message={errorMessage(sms.error, PORTAL_TEXTS.smsFailed)} /> : null}
        </Stack>
      ) : null}

      {create.isError ? <ErrorAlert message={errorMessage(create.error, PORTAL_TEXTS.failed)} /> : null}
      {revoke.isError ? <ErrorAlert message={errorMessage(revoke.error, 'Failed to stop the link')} /> : null}
      <Group justify="space-between">
        {link ? (
          <Button variant="subtle" color="red" onClick={stop} loading={revoke.isPending}>
            Stop Link
          </Button>
        ) : (
          <span />
        )}
        <Group gap="xs">
          <Button variant="default" onClick={onClose}>
            Close
          </Button>
          <Button leftSection={<IconLink size={16} />} onClick={make} loading={create.isPending}>
            {link ? 'Make New Link' : 'Make Link'}
          </Button>
        </Group>
      </Group>
    </Stack>
  );
}
