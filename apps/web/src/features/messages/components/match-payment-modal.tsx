import { Button, Group, Loader, Modal, Paper, Radio, ScrollArea, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { ErrorAlert } from '@/components/ui/error-alert';
import { formatMoney } from '@/components/ui/money';
import { errorMessage } from '@/lib/api-client';
import { toast } from '@/lib/notify';
import { useOrganizationCurrency } from '@/lib/organization-currency';
import { useMatchPayment } from '../api/match-payment';
import { useDeviceSearch } from '../api/search-devices';
import type { MatchTarget } from '../api/types';

/** Resolve an unmatched payment (from a message or the held-payments list): choose the device it pays for. */
export function MatchPaymentModal({ payment, onClose }: { payment: MatchTarget | null; onClose: () => void }) {
  const match = useMatchPayment();
  const close = () => {
    if (match.isPending) return;
    match.reset();
    onClose();
  };
  return (
    <Modal opened={payment !== null} onClose={close} title="Match Payment to a Device" size="lg" centered>
      {payment ? <MatchForm key={payment.payment_id} payment={payment} match={match} onCancel={close} onDone={onClose} /> : null}
    </Modal>
  );
}

function MatchForm({
  payment,
  match,
  onCancel,
  onDone,
}: {
  payment: MatchTarget;
  match: ReturnType<typeof useMatchPayment>;
  onCancel: () => void;
  onDone: () => void;
}) {
  const [query, setQuery] = useState('');
  const [debounced] = useDebouncedValue(query.trim(), 500);
  const [serial, setSerial] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const devices = useDeviceSearch(debounced, true);
  const currency = useOrganizationCurrency();
  const list = devices.data ?? [];

  const submit = () => {
    if (!serial) {
      setNotice('Please select the device this payment is for.');
      return;
    }
    setNotice(null);
    match.mutate(
      { paymentId: payment.payment_id, serialNumber: serial },
      {
        onSuccess: (outcome) => {
          const token = outcome?.token ? ` Token ${outcome.token}${outcome.days ? ` (${outcome.days} days)` : ''}.` : '';
          toast.success(`Payment matched to ${serial}.${token}`);
          match.reset();
          onDone();
        },
      },
    );
  };

  return (
    <Stack gap="md">
      <Paper withBorder p="sm" radius="md" bg="var(--kidogo-section-bg)">
        <Text size="sm" fw={600}>
          {payment.amount ? formatMoney(payment.amount, payment.currency ?? currency) : 'Payment'}
          {payment.transaction_code ? ` · ${payment.transaction_code}` : ''}
          {payment.from ? ` · from ${payment.from}` : ''}
        </Text>
        {payment.text ? (
          <Text size="xs" c="dimmed" mt={4} lineClamp={3}>
            {payment.text}
          </Text>
        ) : null}
      </Paper>
      <TextInput
        label="Find the device"
        placeholder="Serial number, product name or manufacturer"
        leftSection={<IconSearch size={16} />}
        rightSection={devices.isFetching ? <Loader size="xs" /> : null}
        value={query}
        onChange={(e) => setQuery(e.currentTarget.value)}
        data-autofocus
      />
      {devices.isError ? (
        <ErrorAlert message={errorMessage(devices.error, 'Failed to search devices')} onRetry={() => void devices.refetch()} />
      ) : list.length === 0 && !devices.isPending ? (
        <Text size="sm" c="dimmed" ta="center">
          No devices found
        </Text>
      ) : (
        <Radio.Group value={serial} onChange={setSerial} aria-label="Devices">
          <ScrollArea.Autosize mah={280} type="auto">
            <Stack gap={6}>
              {list.map((d) => (
                <Radio.Card key={d.serial_number} value={d.serial_number} radius="md" p="sm" aria-label={d.serial_number}>
                  <Group wrap="nowrap" gap="sm">
                    <Radio.Indicator />
                    <div>
                      <Text size="sm" fw={600} ff="monospace">
                        {d.serial_number}
                      </Text>
                      <Text size="xs" c="dimmed">
                        {[d.product_name, d.customer_name ? `assigned to ${d.customer_name}` : 'unassigned'].join(' · ')}
                      </Text>
                    </div>
                  </Group>
                </Radio.Card>
              ))}
            </Stack>
          </ScrollArea.Autosize>
        </Radio.Group>
      )}
      {notice ? (
        <Text size="sm" c="orange" role="alert">
          {notice}
        </Text>
      ) : null}
      {match.isError ? <ErrorAlert title="Failed to match payment" message={errorMessage(match.error, 'Failed to match payment')} /> : null}
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={onCancel} disabled={match.isPending}>
          Cancel
        </Button>
        <Button onClick={submit} loading={match.isPending}>
          Match Payment
        </Button>
      </Group>
    </Stack>
  );
}
