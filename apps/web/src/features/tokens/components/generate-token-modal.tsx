import { Autocomplete, Button, Group, Modal, NumberInput, Stack, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconBolt } from '@tabler/icons-react';
import { useRef, useState } from 'react';
import { ErrorAlert } from '@/components/ui/error-alert';
import { errorMessage, ServiceBlockedError } from '@/lib/api-client';
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

export interface GenerateTokenModalProps {
  opened: boolean;
  onClose: () => void;
  /** A token was made: show it. */
  onGenerated: (token: TokenReply) => void;
}

/** Serial number and days → POST /generate-token-by-days; one request at a time. */
export function GenerateTokenModal({ opened, onClose, onGenerated }: GenerateTokenModalProps) {
  const [serial, setSerial] = useState('');
  const [days, setDays] = useState<string | number>(DEFAULT_DAYS);
  const [serialError, setSerialError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const inFlight = useRef(false);
  const generate = useGenerateToken();
  const [typed] = useDebouncedValue(serial, 250);
  const suggestions = useDeviceSuggestions(typed, opened && typed.trim().length > 0);

  const reset = () => {
    setSerial('');
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
    const numberOfDays = normalizeDays(days);
    setDays(numberOfDays);
    if (!serialNumber) {
      setSerialError('Serial number is required');
      return;
    }
    inFlight.current = true;
    setFailure(null);
    try {
      const reply = await generate.mutateAsync({ serial_number: serialNumber, number_of_days: numberOfDays });
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
          <NumberInput
            label="Number of Days"
            description={`Whole days, 1 to ${MAX_TOKEN_DAYS} per token`}
            withAsterisk
            min={1}
            max={MAX_TOKEN_DAYS}
            step={1}
            allowDecimal={false}
            allowNegative={false}
            value={days}
            onChange={setDays}
            onBlur={() => setDays(normalizeDays(days))}
            disabled={generate.isPending}
          />
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
