import { Box, Button, Menu, SegmentedControl } from '@mantine/core';
import { IconChevronDown, IconFileDownload } from '@tabler/icons-react';
import type { StatementLanguage } from '@kidogo/contracts';
import { useState } from 'react';
import { lastDays } from '@/components/ui/date-range-picker';
import { errorMessage } from '@/lib/api-client';
import { useBusinessToday } from '@/lib/business-day';
import { toast } from '@/lib/notify';
import { downloadStatement, type StatementPeriod } from '../api/download-statement';

export const STATEMENT_FAILED = 'Failed to download the statement';

/** The periods a customer usually asks about, ending `today` (YYYY-MM-DD, the business day). */
export function statementPeriods(today: string): { label: string; period: StatementPeriod }[] {
  return [
    { label: 'All time', period: {} },
    { label: 'Last 30 days', period: lastDays(30, today) },
    { label: 'Last 90 days', period: lastDays(90, today) },
    { label: 'This year', period: { from: `${today.slice(0, 4)}-01-01`, to: today } },
  ];
}

/** The statement's languages: the customer's own (Kiswahili for a Swahili speaker, French for a French one, else English), or one chosen. */
const LANGUAGES: { label: string; language: StatementLanguage | null }[] = [
  { label: "Customer's", language: null },
  { label: 'English', language: 'en' },
  { label: 'Kiswahili', language: 'sw' },
  { label: 'French', language: 'fr' },
];

/** Download Statement: the customer's statement of account as a PDF, for a chosen period, in a chosen language. */
export function StatementMenu({ customerId }: { customerId: number }) {
  const [busy, setBusy] = useState(false);
  const [language, setLanguage] = useState<StatementLanguage | null>(null);
  const today = useBusinessToday();
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
        {statementPeriods(today).map(({ label, period }) => (
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
