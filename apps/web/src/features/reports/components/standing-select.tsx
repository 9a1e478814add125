import { MultiSelect } from '@mantine/core';
import { REPAYMENT_STANDING_LABELS, REPAYMENT_STANDINGS, type RepaymentStanding } from '@kidogo/contracts';

const OPTIONS = REPAYMENT_STANDINGS.map((s) => ({ value: s, label: REPAYMENT_STANDING_LABELS[s] }));

/**
 * The customer report's repayment standings to show (README "Repayment standing"); none chosen, every customer.
 * Paid off and On track: the customers to offer a second product to.
 */
export function StandingSelect({ value, onChange }: { value: RepaymentStanding[]; onChange: (value: RepaymentStanding[]) => void }) {
  return (
    <MultiSelect
      label="Standing"
      placeholder={value.length ? undefined : 'All customers'}
      data={OPTIONS}
      value={value}
      onChange={(v) => onChange(REPAYMENT_STANDINGS.filter((s) => v.includes(s)))}
      clearable
      w={300}
      comboboxProps={{ withinPortal: true }}
    />
  );
}
