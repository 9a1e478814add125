import { Autocomplete, Button, Group, Modal, NativeSelect, NumberInput, Stack, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconBolt } from '@tabler/icons-react';
import { useRef, useState } from 'react';
import { ErrorAlert } from '@/components/ui/error-alert';
import { errorMessage, ServiceBlockedError } from '@/lib/api-client';
import { managesOrganization, useSession } from '@/lib/session';
import { useGenerateToken } from '../api/generate-token';
import { useDeviceSuggestions } from '../api/search-devices';
import { MAX_TOKEN_DAYS, type TokenReply } from '../api/types';

export const DEFAULT_DAYS = 1;

/** Spec §5: at least 1 day, 1 by default, and anything invalid becomes 1 (at most one token's worth). */
export function normalizeDays(value: string | number | null | undefined): number {
  const n = typeof value === 'number' ? value : Number(String(value ?? '').trim());
  if (!Number.isFinite(n) || !Number.isInteger(n) || n < 1) return DEFAULT_DAYS;
  return Math.min(n, MAX_TOKEN_DAYS);
}

/** Set time: whole days from 0 (0 locks the device) to one token's worth; anything invalid becomes 1, never a lock. */
export function normalizeSetTimeDays(value: string | number | null | undefined): number {
  const n = typeof value === 'number' ? value : Number(String(value ?? '').trim());
  if (String(value ?? '').trim() === '' || !Number.isFinite(n) || !Number.isInteger(n) || n < 0) return DEFAULT_DAYS;
  return Math.min(n, MAX_TOKEN_DAYS);
}

export type TokenChoice = 'days' | 'set_time' | 'unlock' | 'counter_sync';

/** What owners and admins may issue besides days (support and repossession cases), and what each does on the device. */
export const TOKEN_CHOICES: readonly { value: TokenChoice; label: string; help: string }[] = [
  { value: 'days', label: 'Add days', help: "Adds the days to the device's time; the first token after it is assigned activates it." },
  {
    value: 'set_time',
    label: 'Set time',
    help: 'Sets the time left to this many days from when it is entered; 0 locks the device (repossession). The device refuses its older codes once it takes this one.',
  },
  {
    value: 'unlock',
    label: 'Unlock forever',
    help: 'Turns pay-as-you-go off: the device never locks again, whatever is still owed. The device refuses its older codes once it takes this one.',
  },
  {
    value: 'counter_sync',
    label: 'Counter sync',
    help: "Brings the device's count back in step after codes were lost or skipped; it adds no time. The device refuses its older codes once it takes this one.",
  },
];

export interface GenerateTokenModalProps {
  opened: boolean;
  onClose: () => void;
  /** A token was made: show it. */
  onGenerated: (token: TokenReply) => void;
  /** The device the form starts with (a device's own page); empty otherwise. */
  serialNumber?: string;
}

/**
 * Serial number and days → POST /generate-token-by-days; one request at a
 * time. Owners and admins also choose the token's type (set time, unlock
 * forever, counter sync → POST /generate-token), which the API allows them only.
 */
export function GenerateTokenModal({ opened, onClose, onGenerated, serialNumber: initialSerial = '' }: GenerateTokenModalProps) {
  const { user } = useSession();
  const canChoose = managesOrganization(user);
  const [choice, setChoice] = useState<TokenChoice>('days');
  const [serial, setSerial] = useState(initialSerial);
  const [days, setDays] = useState<string | number>(DEFAULT_DAYS);
  const [serialError, setSerialError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const inFlight = useRef(false);
  const generate = useGenerateToken();
  const [typed] = useDebouncedValue(serial, 250);
  const suggestions = useDeviceSuggestions(typed, opened && typed.trim().length > 0);

  const reset = () => {
    setChoice('days');
    setSerial(initialSerial);
    setDays(DEFAULT_DAYS);
    setSerialError(null);
    setFailure(null);
    generate.reset();
  };
  const close = () => {
    if (inFlight.current) return;
    reset();
    onClose();
  };

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (inFlight.current) return;
    const serialNumber = serial.trim();
    const numberOfDays = choice === 'set_time' ? normalizeSetTimeDays(days) : normalizeDays(days);
    setDays(numberOfDays);
    if (!serialNumber) {
      setSerialError('Serial number is required');
      return;
    }
    inFlight.current = true;
    setFailure(null);
    try {
      const reply = await generate.mutateAsync(
        choice === 'days'
          ? { serial_number: serialNumber, number_of_days: numberOfDays }
          : { serial_number: serialNumber, type: choice, ...(choice === 'set_time' ? { value: numberOfDays } : {}) },
      );
      inFlight.current = false;
      reset();
      onClose();
      // A suspended organization gets no token: the modal just closes (spec §4).
      if (!reply?.isOrganizationSuspended) onGenerated(reply);
    } catch (error) {
      inFlight.current = false;
      if (error instanceof ServiceBlockedError) {
        reset();
        onClose();
        return;
      }
      setFailure(`Error generating token: ${errorMessage(error)}`);
    }
  };

  const options = (suggestions.data ?? []).map((d) => ({
    value: d.serial_number,
    label: d.serial_number,
  }));
  const describe = new Map((suggestions.data ?? []).map((d) => [d.serial_number, d]));

  return (
    <Modal opened={opened} onClose={close} title="Generate Token" size="md" closeOnClickOutside={!generate.isPending}>
      <form onSubmit={submit} noValidate aria-label="Generate Token">
        <Stack gap="md">
          {failure ? <ErrorAlert message={failure} /> : null}
          <Autocomplete
            label="Serial Number"
            placeholder="e.g. SN-000123"
            withAsterisk
            data-autofocus
            autoComplete="off"
            value={serial}
            onChange={(v) => {
              setSerial(v);
              if (v.trim()) setSerialError(null);
            }}
            data={options}
            filter={({ options: o }) => o}
            renderOption={({ option }) => {
              const d = describe.get(option.value);
              return (
                <Stack gap={0}>
                  <Text size="sm" ff="monospace">
                    {option.value}
                  </Text>
                  {d ? (
                    <Text size="xs" c="dimmed">
                      {d.product_name}
                      {d.customer_name ? ` · ${d.customer_name}` : ' · unassigned'}
                    </Text>
                  ) : null}
                </Stack>
              );
            }}
            comboboxProps={{ withinPortal: true }}
            error={serialError}
            disabled={generate.isPending}
          />
          {canChoose ? (
            <NativeSelect
              label="Token Type"
              description={TOKEN_CHOICES.find((c) => c.value === choice)!.help}
              data={TOKEN_CHOICES.map(({ value, label }) => ({ value, label }))}
              value={choice}
              onChange={(e) => {
                const next = e.currentTarget.value as TokenChoice;
                setChoice(next);
                if (next !== 'set_time') setDays(normalizeDays(days));
              }}
              disabled={generate.isPending}
              styles={choice === 'unlock' ? { description: { color: 'var(--mantine-color-red-text)' } } : undefined}
            />
          ) : null}
          {choice === 'days' || choice === 'set_time' ? (
            <NumberInput
              label={choice === 'set_time' ? 'Days From Now' : 'Number of Days'}
              description={choice === 'set_time' ? `Whole days, 0 (locks the device) to ${MAX_TOKEN_DAYS}` : `Whole days, 1 to ${MAX_TOKEN_DAYS} per token`}
              withAsterisk
              min={choice === 'set_time' ? 0 : 1}
              max={MAX_TOKEN_DAYS}
              step={1}
              allowDecimal={false}
              allowNegative={false}
              value={days}
              onChange={setDays}
              onBlur={() => setDays(choice === 'set_time' ? normalizeSetTimeDays(days) : normalizeDays(days))}
              disabled={generate.isPending}
            />
          ) : null}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close} disabled={generate.isPending}>
              Cancel
            </Button>
            <Button type="submit" leftSection={<IconBolt size={16} />} loading={generate.isPending}>
              Generate Token
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
