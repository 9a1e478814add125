import { Box, Button, Menu, SegmentedControl } from '@mantine/core';
import { IconChevronDown, IconFileDownload } from '@tabler/icons-react';
import type { StatementLanguage } from '@kidogo/contracts';
import { useState } from 'react';
import { errorMessage } from '@/lib/api-client';
import { toast } from '@/lib/notify';
import { downloadStatement, type StatementPeriod } from '../api/download-statement';

export const STATEMENT_FAILED = 'Failed to download the statement';

/** YYYY-MM-DD of a local date. */
const day = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;

/** The periods a customer usually asks about, ending today. */
export function statementPeriods(today = new Date()): { label: string; period: StatementPeriod }[] {
  const back = (days: number) => {
    const d = new Date(today);
    d.setDate(d.getDate() - days + 1);
    return day(d);
  };
  return [
    { label: 'All time', period: {} },
    { label: 'Last 30 days', period: { from: back(30), to: day(today) } },
    { label: 'Last 90 days', period: { from: back(90), to: day(today) } },
    { label: 'This year', period: { from: `${today.getFullYear()}-01-01`, to: day(today) } },
  ];
}

/** The statement's languages: the customer's own (Kiswahili for a Swahili speaker, else English), or either one. */
const LANGUAGES: { label: string; language: StatementLanguage | null }[] = [
  { label: "Customer's", language: null },
  { label: 'English', language: 'en' },
  { label: 'Kiswahili', language: 'sw' },
];

/** Download Statement: the customer's statement of account as a PDF, for a chosen period, in a chosen language. */
export function StatementMenu({ customerId }: { customerId: number }) {
  const [busy, setBusy] = useState(false);
  const [language, setLanguage] = useState<StatementLanguage | null>(null);
  const download = async (period: StatementPeriod) => {
    setBusy(true);
    try {
      const name = await downloadStatement(customerId, period, language);
      toast.success(`Downloaded ${name}`);
    } catch (error) {
      toast.error(errorMessage(error, STATEMENT_FAILED));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button variant="default" leftSection={<IconFileDownload size={16} />} rightSection={<IconChevronDown size={14} />} loading={busy}>
          Statement
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>Statement of account (PDF)</Menu.Label>
        {statementPeriods().map(({ label, period }) => (
          <Menu.Item key={label} onClick={() => void download(period)}>
            {label}
          </Menu.Item>
        ))}
        <Menu.Divider />
        <Menu.Label id="statement-language">Language</Menu.Label>
        <Box px="xs" pb={6}>
          <SegmentedControl
            size="xs"
            fullWidth
            aria-labelledby="statement-language"
            value={language ?? 'customer'}
            onChange={(v) => setLanguage(v === 'customer' ? null : (v as StatementLanguage))}
            data={LANGUAGES.map((l) => ({ value: l.language ?? 'customer', label: l.label }))}
          />
        </Box>
      </Menu.Dropdown>
    </Menu>
  );
}
