import { Alert, Badge, Button, FileButton, Group, Modal, ScrollArea, SimpleGrid, Stack, Table, Text, TextInput, Textarea } from '@mantine/core';
import { IconDownload, IconFileUpload, IconTransfer } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { ErrorAlert } from '@/components/ui/error-alert';
import { errorMessage, saveBlob } from '@/lib/api-client';
import { toast } from '@/lib/notify';
import { useMoveDevices } from '../api/move-devices';
import { serialsFromText } from '../api/serials-from-text';
import { useStockTake } from '../api/stock-take';
import { STOCK_MOVE_MAX, STOCK_TAKE_MAX, type StockLocation, type StockTakeDevice, type StockTakeReply } from '../api/types';
import { devicesText } from './move-devices-modal';

export const STOCK_TAKE_TEXTS = {
  none: 'Enter or load the serial numbers you counted.',
  tooMany: `A stock take compares at most ${STOCK_TAKE_MAX.toLocaleString('en-US')} serial numbers: count the place in parts.`,
  failed: 'Failed to compare the stock take',
  unreadable: 'That file could not be read.',
} as const;

/** Where Kidogo has a device counted at another place: its place, none, or a customer. */
export const whereKidogoHasIt = (d: StockTakeDevice) => (d.with_customer ? 'With a customer' : (d.location_name ?? 'Not placed'));

/** The stock take as a CSV file: each device missing, counted elsewhere or of no device, with what Kidogo says of it. */
export function stockTakeCsv(reply: StockTakeReply): string {
  const cell = (v: string) => (/[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
  const rows = [
    ['Serial Number', 'Product Name', 'Result', 'Status', 'Where Kidogo Has It'],
    ...reply.missing.map((d) => [d.serial_number, d.product_name, 'Missing', d.status, reply.location_name]),
    ...reply.elsewhere.map((d) => [d.serial_number, d.product_name, 'Counted here, elsewhere in Kidogo', d.status, whereKidogoHasIt(d)]),
    ...reply.unknown.map((s) => [s, '', 'No such device', '', '']),
  ];
  return rows.map((r) => r.map(cell).join(',')).join('\r\n') + '\r\n';
}

/** "a list of 1,204 names the first 1,000": said under a list the API cut short. */
function Cut({ shown, total }: { shown: number; total: number }) {
  if (total <= shown) return null;
  return (
    <Text size="xs" c="dimmed">
      The first {shown.toLocaleString()} of {total.toLocaleString()}, by serial number.
    </Text>
  );
}

function DeviceTable({ label, devices, where }: { label: string; devices: StockTakeDevice[]; where: boolean }) {
  return (
    <ScrollArea.Autosize mah={220} type="auto">
      <Table aria-label={label} striped stickyHeader>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Serial Number</Table.Th>
            <Table.Th>Product</Table.Th>
            <Table.Th>Status</Table.Th>
            {where ? <Table.Th>Where Kidogo Has It</Table.Th> : null}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {devices.map((d) => (
            <Table.Tr key={d.serial_number}>
              <Table.Td ff="monospace">{d.serial_number}</Table.Td>
              <Table.Td>{d.product_name}</Table.Td>
              <Table.Td tt="capitalize">{d.status}</Table.Td>
              {where ? <Table.Td>{whereKidogoHasIt(d)}</Table.Td> : null}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollArea.Autosize>
  );
}

function Figure({ label, value, color }: { label: string; value: number; color?: string }) {
  return (
    <Stack gap={0} align="center">
      <Text size="xl" fw={700} c={value > 0 ? color : 'dimmed'} style={{ fontVariantNumeric: 'tabular-nums' }}>
        {value.toLocaleString()}
      </Text>
      <Text size="xs" c="dimmed" ta="center">
        {label}
      </Text>
    </Stack>
  );
}

/** What the stock take found, with Move Here for the devices in stock elsewhere and the report to download. */
function StockTakeResult({ reply, onAgain, onClose }: { reply: StockTakeReply; onAgain: () => void; onClose: () => void }) {
  const move = useMoveDevices();
  const movable = reply.elsewhere.filter((d) => !d.with_customer).map((d) => d.serial_number);
  const [moved, setMoved] = useState(false);
  const moveHere = () =>
    move.mutate(
      { serial_numbers: movable, location_id: reply.location_id, note: `Found at ${reply.location_name} in a stock take` },
      {
        onSuccess: (r) => {
          toast.success(r?.message || `${devicesText(movable.length)} moved to ${reply.location_name}`);
          setMoved(true);
        },
      },
    );
  const download = () =>
    saveBlob(new Blob([stockTakeCsv(reply)], { type: 'text/csv;charset=utf-8' }), `stock-take-${reply.location_name.replace(/[^\w-]+/g, '-')}.csv`);
  const clean = reply.missing_count === 0 && reply.elsewhere_count === 0 && reply.unknown_count === 0;
  return (
    <Stack gap="md">
      <Alert color={clean ? 'green' : 'yellow'} variant="light">
        {reply.message}
        {reply.duplicates > 0 ? ` (${reply.duplicates.toLocaleString()} counted twice, taken once).` : '.'}
      </Alert>
      <SimpleGrid cols={{ base: 3, sm: 6 }}>
        <Figure label="In Kidogo" value={reply.expected} />
        <Figure label="Counted" value={reply.counted} />
        <Figure label="Found" value={reply.found} color="green" />
        <Figure label="Missing" value={reply.missing_count} color="red" />
        <Figure label="Elsewhere" value={reply.elsewhere_count} color="orange" />
        <Figure label="No Such Device" value={reply.unknown_count} color="orange" />
      </SimpleGrid>
      {reply.missing_count > 0 ? (
        <Stack gap={4}>
          <Text fw={600} size="sm">
            Missing: in Kidogo at {reply.location_name}, not counted
          </Text>
          <DeviceTable label="Missing devices" devices={reply.missing} where={false} />
          <Cut shown={reply.missing.length} total={reply.missing_count} />
        </Stack>
      ) : null}
      {reply.elsewhere_count > 0 ? (
        <Stack gap={4}>
          <Group justify="space-between" align="flex-end">
            <Text fw={600} size="sm">
              Counted here, but elsewhere in Kidogo
            </Text>
            {movable.length > 0 && !moved ? (
              <Button
                size="xs"
                variant="light"
                leftSection={<IconTransfer size={14} />}
                onClick={moveHere}
                loading={move.isPending}
                disabled={movable.length > STOCK_MOVE_MAX}
                title={movable.length > STOCK_MOVE_MAX ? `A move takes at most ${STOCK_MOVE_MAX} devices: move them from Products` : undefined}
              >
                Move {devicesText(movable.length)} to {reply.location_name}
              </Button>
            ) : null}
          </Group>
          <DeviceTable label="Devices counted here that Kidogo has elsewhere" devices={reply.elsewhere} where />
          <Cut shown={reply.elsewhere.length} total={reply.elsewhere_count} />
          {move.isError ? <ErrorAlert message={errorMessage(move.error, 'Failed to move devices')} /> : null}
          {reply.elsewhere.some((d) => d.with_customer) ? (
            <Text size="xs" c="dimmed">
              A device Kidogo has with a customer is not moved: take it back first, or check who has it.
            </Text>
          ) : null}
        </Stack>
      ) : null}
      {reply.unknown_count > 0 ? (
        <Stack gap={4}>
          <Text fw={600} size="sm">
            No such device: check the serial number, or add the device in Products
          </Text>
          <Group gap={6}>
            {reply.unknown.map((s) => (
              <Badge key={s} variant="outline" color="gray" ff="monospace" tt="none">
                {s}
              </Badge>
            ))}
          </Group>
          <Cut shown={reply.unknown.length} total={reply.unknown_count} />
        </Stack>
      ) : null}
      <Group justify="space-between">
        <Button variant="default" leftSection={<IconDownload size={16} />} onClick={download} disabled={clean}>
          Download Report
        </Button>
        <Group gap="xs">
          <Button variant="default" onClick={onAgain}>
            Count Again
          </Button>
          <Button onClick={onClose}>Done</Button>
        </Group>
      </Group>
    </Stack>
  );
}

function StockTakeForm({ location, onCancel, onDone }: { location: StockLocation; onCancel: () => void; onDone: (r: StockTakeReply) => void }) {
  const take = useStockTake(location.location_id);
  const [text, setText] = useState('');
  const [note, setNote] = useState('');
  const [notice, setNotice] = useState<string | null>(null);
  const serials = serialsFromText(text);

  const load = (file: File | null) => {
    if (!file) return;
    file.text().then(
      (content) => {
        setText((t) => (t.trim() ? `${t.trimEnd()}\n` : '') + serialsFromText(content).join('\n'));
        setNotice(null);
      },
      () => setNotice(STOCK_TAKE_TEXTS.unreadable),
    );
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (serials.length === 0) return setNotice(STOCK_TAKE_TEXTS.none);
    if (serials.length > STOCK_TAKE_MAX) return setNotice(STOCK_TAKE_TEXTS.tooMany);
    setNotice(null);
    take.mutate({ serial_numbers: serials, ...(note.trim() ? { note: note.trim() } : {}) }, { onSuccess: (r) => r && onDone(r) });
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          Count the devices at {location.name} ({location.counts.in_stock.toLocaleString()} in stock in Kidogo) and enter their serial
          numbers: one per line as a barcode scanner types them, pasted, or from a file. Nothing changes until you choose to move a
          device.
        </Text>
        <Textarea
          label="Serial Numbers Counted"
          description={`${serials.length.toLocaleString()} entered`}
          placeholder={'SHS-1001\nSHS-1002\n…'}
          autosize
          minRows={6}
          maxRows={12}
          value={text}
          onChange={(e) => {
            setText(e.currentTarget.value);
            setNotice(null);
          }}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          data-autofocus
        />
        <Group justify="space-between" align="flex-end">
          <FileButton onChange={load} accept=".csv,.txt,text/csv,text/plain">
            {(props) => (
              <Button {...props} variant="default" size="xs" leftSection={<IconFileUpload size={14} />}>
                Load from File
              </Button>
            )}
          </FileButton>
          <Text size="xs" c="dimmed">
            A CSV file gives its Serial Number column (e.g. Products → Export CSV).
          </Text>
        </Group>
        <TextInput label="Note" placeholder="e.g. Month-end count by Amina" maxLength={300} value={note} onChange={(e) => setNote(e.currentTarget.value)} />
        {notice ? <ErrorAlert message={notice} /> : null}
        {take.isError ? <ErrorAlert message={errorMessage(take.error, STOCK_TAKE_TEXTS.failed)} /> : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel} disabled={take.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={take.isPending}>
            Compare
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * Stock Take: the serial numbers counted at a place compared with the devices
 * Kidogo has in stock there: found, missing, counted but elsewhere in Kidogo
 * (with Move Here for those in stock), and of no device; the report as CSV.
 */
export function StockTakeModal({ location, onClose }: { location: StockLocation | null; onClose: () => void }) {
  const [reply, setReply] = useState<StockTakeReply | null>(null);
  const close = () => {
    setReply(null);
    onClose();
  };
  return (
    <Modal opened={location !== null} onClose={close} title={location ? `Stock Take: ${location.name}` : 'Stock Take'} size={reply ? 'xl' : 'lg'} centered>
      {location && reply ? (
        <StockTakeResult reply={reply} onAgain={() => setReply(null)} onClose={close} />
      ) : location ? (
        <StockTakeForm location={location} onCancel={close} onDone={setReply} />
      ) : null}
    </Modal>
  );
}
