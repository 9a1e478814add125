import '@mantine/dates/styles.css';
import { DatePickerInput } from '@mantine/dates';
import { IconCalendar } from '@tabler/icons-react';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useBusinessToday } from '@/lib/business-day';

/** Whole days, YYYY-MM-DD at both ends, inclusive. */
export interface DayRange {
  from: string;
  to: string;
}

/** The last `days` days ending `today` (YYYY-MM-DD, the business day: useBusinessToday). */
export function lastDays(days: number, today: string): DayRange {
  return { from: dayjs(today).subtract(days - 1, 'day').format('YYYY-MM-DD'), to: today };
}

export interface DateRangePickerProps {
  value: DayRange;
  /** Called once both ends are chosen. */
  onChange: (range: DayRange) => void;
  label?: string;
  w?: number | string;
}

/**
 * A two-ended date picker (label 'Pick a date' by default). Picking the first
 * day does not filter yet; the range applies when the second day is picked.
 */
export function DateRangePicker({ value, onChange, label = 'Pick a date', w = 260 }: DateRangePickerProps) {
  const today = useBusinessToday();
  const [draft, setDraft] = useState<[string | null, string | null]>([value.from, value.to]);
  // A new range from outside (a preset) replaces a half-picked one.
  const [shown, setShown] = useState(value);
  if (shown.from !== value.from || shown.to !== value.to) {
    setShown(value);
    setDraft([value.from, value.to]);
  }

  return (
    <DatePickerInput
      type="range"
      label={label}
      placeholder={label}
      w={w}
      value={draft}
      valueFormat="D MMM YYYY"
      maxDate={today}
      allowSingleDateInRange
      leftSection={<IconCalendar size={16} />}
      popoverProps={{ withinPortal: true }}
      onChange={(next) => {
        const [from, to] = next as [string | null, string | null];
        setDraft([from, to]);
        if (from && to) onChange({ from, to });
      }}
    />
  );
}
