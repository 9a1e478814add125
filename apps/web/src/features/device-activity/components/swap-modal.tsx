import { Alert, Button, Checkbox, Group, Loader, Modal, SegmentedControl, Select, Stack, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconArrowsExchange, IconExternalLink } from '@tabler/icons-react';
import { TICKET_CATEGORY_LABELS, type DeviceWarranty, type ItemSwapReply, type SwapOldStatus } from '@kidogo/contracts';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { ErrorAlert } from '@/components/ui/error-alert';
import { LabelledFigure } from '@/components/ui/labelled-figure';
import { formatMoney } from '@/components/ui/money';
import { ReasonField, useReason } from '@/components/ui/reason-field';
import { TokenText } from '@/components/ui/token-text';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/api-client';
import { useProducts } from '@/features/products/api/get-products';
import { useTickets } from '@/features/tickets/api/get-tickets';
import type { Product } from '@/features/products/api/types';
import { DeviceWarrantyLine } from '@/features/warranties/components/device-warranty';
import { useSwapDevice } from '../api/swap-device';
import { locationOf, ReturnPlaceSelect, STAY } from './return-place-select';

/** How many devices in stock the replacement box offers for what is typed. */
const STOCK_SEARCH_LIMIT = 20;

const days = (n: number) => (n === 1 ? '1 day' : `${n.toLocaleString()} days`);

/** The faulty device's warranty: whether the maker should stand behind the fault. */
function WarrantyRow({ serialNumber, warranty }: { serialNumber: string; warranty: DeviceWarranty }) {
  return (
    <Group gap="xs" wrap="wrap" role="group" aria-label={`Warranty of ${serialNumber}`}>
      <Text size="sm" fw={500}>
        Warranty of {serialNumber}
      </Text>
      <DeviceWarrantyLine warranty={warranty} />
    </Group>
  );
}

/**
 * Swap: a customer's faulty device is replaced by one from stock. Their
 * account (what they paid, the days left, a payoff) moves to the replacement,
 * which gets a code for it at once; the old device is locked and goes to
 * maintenance or is retired. The result stays on screen: both codes are what
 * the field agent needs.
 */
export function SwapModal({
  serialNumber,
  customerName,
  locationName,
  warranty,
  currency,
  opened,
  onClose,
}: {
  serialNumber: string;
  customerName: string | null;
  /** The stock location it was given from (where the old device stays unless another is chosen). */
  locationName: string | null;
  /** The device's warranty as its page read it; null when its product has none set. */
  warranty: DeviceWarranty | null;
  currency: string | null;
  opened: boolean;
  onClose: () => void;
}) {
  const swap = useSwapDevice();
  const close = () => {
    if (swap.isPending) return;
    swap.reset();
    onClose();
  };
  return (
    <Modal opened={opened} onClose={close} title={swap.data ? 'Device Swapped' : 'Swap Device'} size="lg" centered>
      {swap.data ? (
        <Done reply={swap.data} currency={currency} onClose={close} />
      ) : opened ? (
        <SwapForm serialNumber={serialNumber} customerName={customerName} locationName={locationName} warranty={warranty} swap={swap} onCancel={close} />
      ) : null}
    </Modal>
  );
}

/** A device that can replace another: in stock (available) and given to nobody. */
const inStock = (p: Product) => p.status === 'available' && !p.is_assigned;

/**
 * The replacement: a device in stock, searched on the server (serial number,
 * product name or maker) as the user types.
 */
function ReplacementSelect({
  serialNumber,
  value,
  onChange,
  error,
  disabled,
}: {
  /** The device being replaced: never offered. */
  serialNumber: string;
  value: Product | null;
  onChange: (device: Product | null) => void;
  error: string | null;
  disabled: boolean;
}) {
  const [search, setSearch] = useState('');
  const [typed] = useDebouncedValue(search.trim(), 300);
  const stock = useProducts({ page: 1, limit: STOCK_SEARCH_LIMIT, search: typed || undefined, status: 'unassigned' });
  const found = (stock.data?.data ?? []).filter((p) => inStock(p) && p.serial_number !== serialNumber);
  // The chosen device stays an option whatever is searched next.
  const devices = value && !found.some((p) => p.serial_number === value.serial_number) ? [value, ...found] : found;
  const bySerial = new Map(devices.map((p) => [p.serial_number, p]));
  return (
    <Select
      label="Replacement device"
      placeholder="Search by serial number or product name"
      description={
        value
          ? `${value.product_name}${value.location_name ? ` · at ${value.location_name}` : ''}`
          : 'A device in stock (available), given to nobody'
      }
      withAsterisk
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      // The server has searched already (by product name and maker too): every device it found is offered.
      filter={({ options }) => options}
      data={devices.map((p) => ({ value: p.serial_number, label: p.serial_number }))}
      renderOption={({ option }) => {
        const device = bySerial.get(option.value);
        return (
          <Stack gap={0}>
            <Text size="sm" ff="monospace" fw={600}>
              {option.value}
            </Text>
            {device ? (
              <Text size="xs" c="dimmed">
                {device.product_name}
                {device.location_name ? ` · ${device.location_name}` : ''}
              </Text>
            ) : null}
          </Stack>
        );
      }}
      value={value?.serial_number ?? null}
      onChange={(serial) => onChange(serial ? (bySerial.get(serial) ?? null) : null)}
      nothingFoundMessage={
        stock.isError
          ? errorMessage(stock.error, 'Failed to search the devices in stock')
          : stock.isFetching || search.trim() !== typed
            ? 'Searching...'
            : 'No device in stock matches'
      }
      rightSection={stock.isFetching ? <Loader size="xs" /> : undefined}
      error={error}
      disabled={disabled}
    />
  );
}

function SwapForm({
  serialNumber,
  customerName,
  locationName,
  warranty,
  swap,
  onCancel,
}: {
  serialNumber: string;
  customerName: string | null;
  locationName: string | null;
  warranty: DeviceWarranty | null;
  swap: ReturnType<typeof useSwapDevice>;
  onCancel: () => void;
}) {
  const reason = useReason('Say why this device is swapped');
  const [replacement, setReplacement] = useState<Product | null>(null);
  const [replacementError, setReplacementError] = useState<string | null>(null);
  const [lock, setLock] = useState(true);
  const [status, setStatus] = useState<SwapOldStatus>('maintenance');
  const [place, setPlace] = useState(STAY);
  // The device's tickets not resolved yet: the fault the swap answers. The only device fault among them is chosen until
  // the user says otherwise (undefined: untouched; null: none).
  const tickets = useTickets({ page: 1, limit: 25, status: 'active', serial_number: serialNumber });
  const unresolved = (tickets.data?.data ?? []).filter((t) => t.serial_number === serialNumber && t.status !== 'resolved');
  const faults = unresolved.filter((t) => t.category === 'device_fault');
  const [ticketChoice, setTicketChoice] = useState<string | null | undefined>(undefined);
  const ticketId = ticketChoice === undefined ? (faults.length === 1 ? String(faults[0]!.ticket_id) : null) : ticketChoice;
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const text = reason.take();
    setReplacementError(replacement ? null : 'Choose the device that replaces it');
    if (text === null || !replacement) return;
    swap.mutate({
      item_serial_number: serialNumber,
      new_serial_number: replacement.serial_number,
      reason: text,
      lock,
      status,
      ...locationOf(place),
      ...(ticketId ? { ticket_id: Number(ticketId) } : {}),
    });
  };
  return (
    <form onSubmit={submit} noValidate aria-label="Swap Device">
      <Stack gap="md">
        <Text size="sm">
          Replace {serialNumber} with a device from stock. {customerName ? `${customerName}'s` : "The customer's"} account moves to the replacement: what
          they paid and the days they have left. The replacement gets a code to enter at once, and {serialNumber} leaves the customer.
        </Text>
        {warranty ? <WarrantyRow serialNumber={serialNumber} warranty={warranty} /> : null}
        {swap.isError ? <ErrorAlert message={errorMessage(swap.error, 'Failed to swap the device')} /> : null}
        <ReplacementSelect
          serialNumber={serialNumber}
          value={replacement}
          onChange={(device) => {
            setReplacement(device);
            if (device) setReplacementError(null);
          }}
          error={replacementError}
          disabled={swap.isPending}
        />
        <ReasonField placeholder="e.g. Battery fails after an hour, under warranty" disabled={swap.isPending} {...reason.field} />
        {unresolved.length ? (
          <Select
            label="Service ticket"
            description="The ticket this swap answers: the swap is written in its history, where it is resolved."
            placeholder="None"
            clearable
            data={unresolved.map((t) => ({
              value: String(t.ticket_id),
              label: `#${t.ticket_id} · ${TICKET_CATEGORY_LABELS[t.category]}: ${t.description.length > 60 ? `${t.description.slice(0, 59)}…` : t.description}`,
            }))}
            value={ticketId}
            onChange={(v) => setTicketChoice(v)}
            disabled={swap.isPending}
          />
        ) : null}
        <Checkbox
          label="Lock the old device with a code"
          description="A Set Time token of 0 days, to enter on the old device: it also cancels every code sent before. Leave it off for a device that no longer turns on."
          checked={lock}
          onChange={(e) => setLock(e.currentTarget.checked)}
          disabled={swap.isPending}
        />
        <Stack gap={4}>
          <Text size="sm" fw={500} id="swap-old-status">
            Where the old device goes
          </Text>
          <SegmentedControl
            aria-labelledby="swap-old-status"
            value={status}
            onChange={(v) => setStatus(v as SwapOldStatus)}
            data={[
              { value: 'maintenance', label: 'Maintenance' },
              { value: 'retired', label: 'Retired' },
            ]}
            disabled={swap.isPending}
          />
        </Stack>
        <ReturnPlaceSelect
          locationName={locationName}
          value={place}
          onChange={setPlace}
          description="Where the old device is taken: a workshop that repairs, for example."
          disabled={swap.isPending}
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel} disabled={swap.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={swap.isPending} leftSection={<IconArrowsExchange size={16} />}>
            Swap Device
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function Done({ reply, currency, onClose }: { reply: ItemSwapReply; currency: string | null; onClose: () => void }) {
  const { token, lock_token: lockToken } = reply;
  return (
    <Stack gap="md">
      <Text size="sm">
        {reply.new_serial_number} is now {reply.customer_name}'s, with their account. {reply.old_serial_number} is{' '}
        {reply.status === 'retired' ? 'retired' : 'in maintenance'}
        {reply.location_name ? ` at ${reply.location_name}` : ''}.
      </Text>
      {reply.warranty ? <WarrantyRow serialNumber={reply.old_serial_number} warranty={reply.warranty} /> : null}
      {token ? (
        <Alert color="green" variant="light" title={`Enter this code on ${reply.new_serial_number}`}>
          <TokenText token={token.token} size="xl" fw={700} copyable />
          <Text size="sm" fw={600} mt={4}>
            {token.token_type === 'unlock' ? 'Unlock (paid off)' : `Set Time: ${days(token.days)}`}
          </Text>
          <Text size="xs" c="dimmed">
            Token count {token.token_count}. It is in the device's token history too.
          </Text>
        </Alert>
      ) : (
        <Alert color="gray" variant="light" title="No code needed">
          <Text size="sm">The account had no days left: {reply.new_serial_number} stays off until the next payment.</Text>
        </Alert>
      )}
      {lockToken ? (
        <Alert color="red" variant="light" title={`Enter this code on ${reply.old_serial_number} to lock it`}>
          <TokenText token={lockToken.token} size="xl" fw={700} copyable />
          <Text size="xs" c="dimmed" mt={4}>
            Token count {lockToken.token_count}. It is in the device's token history too.
          </Text>
        </Alert>
      ) : (
        <Text size="sm" c="dimmed">
          {reply.old_serial_number} was not locked.
        </Text>
      )}
      <Group gap="xl">
        <LabelledFigure label="Total Paid Moved">{formatMoney(reply.total_paid, currency)}</LabelledFigure>
        <LabelledFigure label="Days Moved">{reply.paid_off ? 'Paid off' : days(reply.days_moved)}</LabelledFigure>
      </Group>
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={onClose}>
          Close
        </Button>
        <Button component={Link} to={paths.app.deviceActivity.getHref(reply.new_serial_number)} onClick={onClose} leftSection={<IconExternalLink size={16} />}>
          Open {reply.new_serial_number}
        </Button>
      </Group>
    </Stack>
  );
}
