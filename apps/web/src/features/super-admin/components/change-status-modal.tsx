import { Button, Group, Modal, Select, Stack, Text, Textarea } from '@mantine/core';
import type { OrgStatus } from '@kidogo/contracts';
import { useState } from 'react';
import { ErrorAlert } from '@/components/ui/error-alert';
import { errorMessage } from '@/lib/api-client';
import { useUpdateOrganizationStatus } from '../api/update-organization-status';
import type { AdminOrganization } from '../api/types';
import { useConsoleFeedback } from './console-feedback';
import { OrgStatusBadge } from './org-status-badge';
import { CONFIRM, needsReason, REASON_TEMPLATES, templateMessage, type ReasonTemplate } from './reason-templates';

const STATUS_OPTIONS: { value: OrgStatus; label: string }[] = [
  { value: 'active', label: 'Active: full access' },
  { value: 'suspended', label: 'Suspended: temporary' },
  { value: 'disabled', label: 'Disabled: permanent' },
];

export interface ChangeStatusTarget {
  organization: Pick<AdminOrganization, 'organization_id' | 'name' | 'status' | 'disabled_reason'>;
  /** Pre-chosen new status, e.g. from the details' Suspend Organization. */
  status?: OrgStatus;
}

/** Change Organization Status: new status, a reason template or a custom message, and a confirm that says what it does. */
export function ChangeStatusModal({ target, onClose }: { target: ChangeStatusTarget | null; onClose: () => void }) {
  const update = useUpdateOrganizationStatus();
  const close = () => {
    if (update.isPending) return;
    update.reset();
    onClose();
  };
  return (
    <Modal opened={target !== null} onClose={close} title="Change Organization Status" size="lg" centered>
      {target ? (
        <ChangeStatusForm
          key={`${target.organization.organization_id}:${target.status ?? ''}`}
          target={target}
          update={update}
          onCancel={close}
          onDone={() => {
            update.reset();
            onClose();
          }}
        />
      ) : null}
    </Modal>
  );
}

function ChangeStatusForm({
  target,
  update,
  onCancel,
  onDone,
}: {
  target: ChangeStatusTarget;
  update: ReturnType<typeof useUpdateOrganizationStatus>;
  onCancel: () => void;
  onDone: () => void;
}) {
  const feedback = useConsoleFeedback();
  const org = target.organization;
  const [status, setStatus] = useState<OrgStatus | null>(target.status ?? null);
  const [template, setTemplate] = useState<ReasonTemplate>('custom');
  const [reason, setReason] = useState('');

  const reasonMissing = needsReason(status) && !reason.trim();
  const confirm = status ? CONFIRM[status] : null;

  const submit = () => {
    if (!status || reasonMissing) return;
    update.mutate(
      { id: org.organization_id, status, reason: reason.trim() || null },
      {
        onSuccess: () => {
          feedback.success(CONFIRM[status].success);
          onDone();
        },
        onError: (e) => feedback.error(errorMessage(e, 'Failed to update organization status')),
      },
    );
  };

  return (
    <Stack gap="md">
      <Group gap="xs">
        <Text size="sm">
          <b>{org.name ? `${org.name} (${org.organization_id})` : org.organization_id}</b> is
        </Text>
        <OrgStatusBadge status={org.status} />
      </Group>
      {org.disabled_reason && org.status !== 'active' ? (
        <Text size="sm" c="dimmed">
          Current reason: {org.disabled_reason}
        </Text>
      ) : null}
      <Select
        label="New Status"
        withAsterisk
        placeholder="Choose the new status"
        data={STATUS_OPTIONS}
        value={status}
        onChange={(v) => setStatus((v as OrgStatus | null) ?? null)}
        allowDeselect={false}
      />
      <Select
        label="Reason Template"
        data={REASON_TEMPLATES.map((t) => ({ value: t.value, label: t.label }))}
        value={template}
        onChange={(v) => {
          const t = (v ?? 'custom') as ReasonTemplate;
          setTemplate(t);
          setReason(templateMessage(t));
        }}
        allowDeselect={false}
      />
      <Textarea
        label="Reason"
        description="Shown to the organization's users when they try to use the system."
        placeholder={template === 'custom' ? 'Write the message the organization will see' : undefined}
        withAsterisk={template === 'custom'}
        rows={4}
        value={reason}
        onChange={(e) => {
          setReason(e.currentTarget.value);
          // A template edited by hand is no longer that template.
          if (template !== 'custom') setTemplate('custom');
        }}
        error={reasonMissing && reason.length > 0 ? 'A reason is required' : undefined}
      />
      {reasonMissing ? (
        <Text size="xs" c="dimmed">
          A reason is required to {status === 'disabled' ? 'disable' : 'suspend'} an organization.
        </Text>
      ) : null}
      {update.isError ? <ErrorAlert message={errorMessage(update.error, 'Failed to update organization status')} /> : null}
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={onCancel} disabled={update.isPending}>
          Cancel
        </Button>
        <Button color={confirm?.color} onClick={submit} disabled={!status || reasonMissing || update.isPending}>
          {update.isPending ? 'Updating...' : (confirm?.label ?? 'Update Status')}
        </Button>
      </Group>
    </Stack>
  );
}
