import { Alert, Button, Group, Modal, Paper, Select, Stack, Text, Textarea } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { ErrorAlert } from '@/components/ui/error-alert';
import { errorMessage } from '@/lib/api-client';
import { toast } from '@/lib/notify';
import { NOT_PLACED, useLocationOptions } from '../api/get-stock-locations';
import { useMoveDevices } from '../api/move-devices';

export const MOVE_TEXTS = {
  noTarget: 'Please choose where the devices go.',
  failed: 'Failed to move devices',
} as const;

/** The serials the dialog names: all of a few, else the first ones and how many more. */
const SHOWN_SERIALS = 5;

export const devicesText = (n: number) => (n === 1 ? '1 device' : `${n.toLocaleString()} devices`);

/**
 * Move to Location: devices in stock (not with a customer) to a stock
 * location, or to none ("Not placed"), with an optional note kept with each
 * movement. The API moves all of them or none and says why it refused.
 */
export function MoveDevicesModal({
  serials,
  onClose,
  onMoved,
}: {
  /** The devices to move; null keeps the dialog closed. */
  serials: readonly string[] | null;
  onClose: () => void;
  /** After a move: e.g. to clear a selection. */
  onMoved?: () => void;
}) {
  const move = useMoveDevices();
  const close = () => {
    if (move.isPending) return;
    move.reset();
    onClose();
  };
  return (
    <Modal opened={serials !== null && serials.length > 0} onClose={close} title="Move to Location" centered>
      {serials && serials.length > 0 ? (
        <MoveDevicesForm
          serials={serials}
          move={move}
          onCancel={close}
          onDone={() => {
            move.reset();
            onMoved?.();
            onClose();
          }}
        />
      ) : null}
    </Modal>
  );
}

function MoveDevicesForm({
  serials,
  move,
  onCancel,
  onDone,
}: {
  serials: readonly string[];
  move: ReturnType<typeof useMoveDevices>;
  onCancel: () => void;
  onDone: () => void;
}) {
  const options = useLocationOptions();
  const [target, setTarget] = useState<string | null>(null);
  const [note, setNote] = useState('');
  const [notice, setNotice] = useState<string | null>(null);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (target === null) {
      setNotice(MOVE_TEXTS.noTarget);
      return;
    }
    setNotice(null);
    move.mutate(
      {
        serial_numbers: [...serials],
        location_id: target === NOT_PLACED.value ? null : Number(target),
        ...(note.trim() ? { note: note.trim() } : {}),
      },
      {
        onSuccess: (reply) => {
          toast.success(reply?.message || `${devicesText(serials.length)} moved`);
          onDone();
        },
      },
    );
  };

  const shown = serials.slice(0, SHOWN_SERIALS).join(', ');
  const more = serials.length - SHOWN_SERIALS;
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <Paper withBorder p="sm" radius="md" bg="var(--kidogo-section-bg)">
          <Text size="sm" fw={600}>
            Moving {devicesText(serials.length)}
          </Text>
          <Text size="sm" c="dimmed" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
            {shown}
            {more > 0 ? ` and ${more.toLocaleString()} more` : ''}
          </Text>
        </Paper>
        <Select
          label="Move To"
          placeholder="Choose a stock location"
          withAsterisk
          allowDeselect={false}
          data={[NOT_PLACED, ...options]}
          value={target}
          onChange={(v) => {
            setTarget(v);
            setNotice(null);
            move.reset();
          }}
          description="Not placed takes the devices out of every stock location."
          comboboxProps={{ withinPortal: true }}
          data-autofocus
        />
        <Textarea
          label="Note"
          placeholder="Why they move, e.g. Restock for the Kisumu market day"
          autosize
          minRows={2}
          maxLength={300}
          value={note}
          onChange={(e) => setNote(e.currentTarget.value)}
        />
        {notice ? (
          <Alert color="yellow" variant="light" icon={<IconInfoCircle size={18} />} role="alert">
            {notice}
          </Alert>
        ) : null}
        {move.isError ? <ErrorAlert title={MOVE_TEXTS.failed} message={errorMessage(move.error, MOVE_TEXTS.failed)} /> : null}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel} disabled={move.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={move.isPending}>
            {serials.length === 1 ? 'Move Device' : 'Move Devices'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
