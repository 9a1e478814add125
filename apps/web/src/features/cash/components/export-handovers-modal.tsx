import { Button, Group, Modal, Select, Stack, Text } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useState } from 'react';
import { DateRangePicker, lastDays, type DayRange } from '@/components/ui/date-range-picker';
import { useBusinessToday } from '@/lib/business-day';
import { useExportCashHandovers } from '../api/export-cash-handovers';

/** The Collector choice of every collector (a Select's value cannot be empty). */
const EVERYONE = '(everyone)';

/**
 * Export Handovers (owners and admins): the handovers of a period, of everyone
 * or one collector, as CSV, to match against the bank's deposits. The last 30
 * days by default.
 */
export function ExportHandoversModal({ opened, collectors, onClose }: { opened: boolean; collectors: readonly string[]; onClose: () => void }) {
  const today = useBusinessToday();
  const [range, setRange] = useState<DayRange>(() => lastDays(30, today));
  const [collector, setCollector] = useState(EVERYONE);
  const exporter = useExportCashHandovers();
  const download = () =>
    exporter.mutate({ from: range.from, to: range.to, ...(collector !== EVERYONE ? { collector } : {}) }, { onSuccess: onClose });
  return (
    <Modal opened={opened} onClose={onClose} title="Export Handovers" size="md" centered>
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          The cash handed over in the period, newest first, with who received it, the deposit slip or receipt, and the handovers voided (who and why): to match against the bank&apos;s deposits.
        </Text>
        <DateRangePicker label="Handed over" value={range} onChange={setRange} w="100%" />
        <Select
          label="Collector"
          data={[{ value: EVERYONE, label: 'Everyone' }, ...[...new Set(collectors)].map((u) => ({ value: u, label: u }))]}
          value={collector}
          onChange={(v) => setCollector(v ?? EVERYONE)}
          allowDeselect={false}
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={exporter.isPending}>
            Cancel
          </Button>
          <Button leftSection={<IconDownload size={16} />} onClick={download} loading={exporter.isPending}>
            Download CSV
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
