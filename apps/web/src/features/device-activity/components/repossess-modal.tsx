import { Alert, Button, Checkbox, Group, Modal, SegmentedControl, Stack, Text } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import type { ItemRepossessReply } from '@kidogo/contracts';
import { useState } from 'react';
import { ErrorAlert } from '@/components/ui/error-alert';
import { formatMoney } from '@/components/ui/money';
import { ReasonField, useReason } from '@/components/ui/reason-field';
import { TokenText } from '@/components/ui/token-text';
import { errorMessage } from '@/lib/api-client';
import { useRepossessDevice } from '../api/repossess-device';
import { locationOf, ReturnPlaceSelect, STAY } from './return-place-select';

/** Where a repossessed device goes; retired: it was not recovered. */
type RepossessedStatus = ItemRepossessReply['status'];

/**
 * Repossess: the device is locked (a Set Time token of 0 days, to enter on
 * it), taken off its customer and what was left to pay on it written off.
 * The result stays on screen: the lock code is what the field agent needs.
 */
export function RepossessModal({
  serialNumber,
  customerName,
  locationName,
  currency,
  opened,
  onClose,
}: {
  serialNumber: string;
  customerName: string | null;
  /** The stock location it was given from (where it stays unless another is chosen). */
  locationName: string | null;
  currency: string | null;
  opened: boolean;
  onClose: () => void;
}) {
  const repossess = useRepossessDevice();
  const close = () => {
    if (repossess.isPending) return;
    repossess.reset();
    onClose();
  };
  return (
    <Modal opened={opened} onClose={close} title={repossess.data ? 'Device Repossessed' : 'Repossess Device'} size="md" centered>
      {repossess.data ? (
        <Done reply={repossess.data} currency={currency} onClose={close} />
      ) : opened ? (
        <RepossessForm serialNumber={serialNumber} customerName={customerName} locationName={locationName} repossess={repossess} onCancel={close} />
      ) : null}
    </Modal>
  );
}

function RepossessForm({
  serialNumber,
  customerName,
  locationName,
  repossess,
  onCancel,
}: {
  serialNumber: string;
  customerName: string | null;
  locationName: string | null;
  repossess: ReturnType<typeof useRepossessDevice>;
  onCancel: () => void;
}) {
  const reason = useReason('Say why this device is repossessed');
  const [lock, setLock] = useState(true);
  const [status, setStatus] = useState<RepossessedStatus>('maintenance');
  const lost = status === 'retired';
  const [place, setPlace] = useState(STAY);
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const text = reason.take();
    if (text === null) return;
    // Not recovered: at no stock location.
    repossess.mutate({ item_serial_number: serialNumber, reason: text, lock, status, ...(lost ? {} : locationOf(place)) });
  };
  return (
    <form onSubmit={submit} noValidate aria-label="Repossess Device">
      <Stack gap="md">
        <Text size="sm">
          Take {serialNumber} back from {customerName ?? 'its customer'}. What is left to pay on it is written off, and the customer no longer has it.
          Given back to the same customer later, its account carries on.
        </Text>
        {repossess.isError ? <ErrorAlert message={errorMessage(repossess.error, 'Failed to repossess the device')} /> : null}
        <ReasonField placeholder="e.g. No payment for 120 days, customer moved away" disabled={repossess.isPending} {...reason.field} />
        <Checkbox
          label="Lock the device"
          description="A Set Time token of 0 days, to enter on the device: it also cancels every code sent before."
          checked={lock}
          onChange={(e) => setLock(e.currentTarget.checked)}
          disabled={repossess.isPending}
        />
        <Stack gap={4}>
          <Text size="sm" fw={500} id="repossess-status">
            Where it goes
          </Text>
          <SegmentedControl
            aria-labelledby="repossess-status"
            value={status}
            onChange={(v) => setStatus(v as RepossessedStatus)}
            data={[
              { value: 'maintenance', label: 'Maintenance' },
              { value: 'available', label: 'Available stock' },
              { value: 'retired', label: 'Not recovered' },
            ]}
            disabled={repossess.isPending}
          />
          {lost ? (
            <Text size="xs" c="dimmed">
              Lost, stolen or gone with the customer: it is written off with what is left to pay, retired and kept at no stock
              location. Found later, make it available again from Edit Product.
            </Text>
          ) : null}
        </Stack>
        {lost ? null : (
          <ReturnPlaceSelect
            locationName={locationName}
            value={place}
            onChange={setPlace}
            description="Where the device is taken: a warehouse that checks and refurbishes, for example."
            disabled={repossess.isPending}
          />
        )}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel} disabled={repossess.isPending}>
            Cancel
          </Button>
          <Button type="submit" color="red" loading={repossess.isPending} leftSection={<IconLock size={16} />}>
            Repossess
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function Done({ reply, currency, onClose }: { reply: ItemRepossessReply; currency: string | null; onClose: () => void }) {
  return (
    <Stack gap="md">
      <Text size="sm">
        {reply.serial_number} is no longer {reply.customer_name}'s;{' '}
        {reply.status === 'retired'
          ? 'it was not recovered: written off and retired'
          : `it is in ${reply.status === 'maintenance' ? 'maintenance' : 'the available stock'}${reply.location_name ? ` at ${reply.location_name}` : ''}`}
        .
      </Text>
      {reply.lock_token ? (
        <Alert color="red" variant="light" title="Enter this code on the device to lock it">
          <TokenText token={reply.lock_token.token} size="xl" fw={700} copyable />
          <Text size="xs" c="dimmed" mt={4}>
            Token count {reply.lock_token.token_count}. It is in the device's token history too.
          </Text>
        </Alert>
      ) : null}
      <Group gap="xl">
        <Stack gap={0}>
          <Text size="xs" c="dimmed" fw={600} tt="uppercase">
            Total paid
          </Text>
          <Text fw={600}>{formatMoney(reply.total_paid, currency ?? undefined)}</Text>
        </Stack>
        <Stack gap={0}>
          <Text size="xs" c="dimmed" fw={600} tt="uppercase">
            Written off
          </Text>
          <Text fw={600} c="red">
            {reply.written_off === null ? 'No payoff price' : formatMoney(reply.written_off, currency ?? undefined)}
          </Text>
        </Stack>
      </Group>
      <Group justify="flex-end">
        <Button onClick={onClose}>Done</Button>
      </Group>
    </Stack>
  );
}
