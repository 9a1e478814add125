import '@mantine/dates/styles.css';
import { ActionIcon, Group } from '@mantine/core';
import { MonthPickerInput } from '@mantine/dates';
import { IconCalendar, IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import { FIRST_MONTH, shiftMonth } from './months';

/**
 * The month shown, with the months before and after it one click away; no
 * month after `latest` (the business month now: nothing is reckoned later).
 */
export function MonthPicker({ value, latest, onChange }: { value: string; latest: string; onChange: (month: string) => void }) {
  return (
    <Group gap={6} wrap="nowrap" align="flex-end">
      <ActionIcon variant="default" size={36} aria-label="Previous month" disabled={value <= FIRST_MONTH} onClick={() => onChange(shiftMonth(value, -1))}>
        <IconChevronLeft size={16} />
      </ActionIcon>
      <MonthPickerInput
        label="Month"
        value={`${value}-01`}
        onChange={(next) => {
          if (next) onChange(next.slice(0, 7));
        }}
        valueFormat="MMMM YYYY"
        minDate={`${FIRST_MONTH}-01`}
        maxDate={`${latest}-01`}
        allowDeselect={false}
        leftSection={<IconCalendar size={16} />}
        popoverProps={{ withinPortal: true }}
        w={200}
      />
      <ActionIcon variant="default" size={36} aria-label="Next month" disabled={value >= latest} onClick={() => onChange(shiftMonth(value, 1))}>
        <IconChevronRight size={16} />
      </ActionIcon>
    </Group>
  );
}
