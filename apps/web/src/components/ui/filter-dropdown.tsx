import { Badge, Button, Checkbox, Divider, Group, Popover, Stack, Text } from '@mantine/core';
import { IconFilter } from '@tabler/icons-react';
import { useState } from 'react';

export const DEFAULT_FILTER_OPTIONS = [
  'Direct VS Indirect',
  'Real Time Value',
  'Top Channels',
  'Sales VS Refunds',
  'Last Order',
  'Total Spent',
] as const;

export interface FilterDropdownProps {
  /** The applied filters. */
  value: string[];
  /** Called with the new filters on Apply, and with [] on Clear. */
  onApply: (value: string[]) => void;
  options?: readonly string[];
  label?: string;
}

/** A button that opens a checklist of filters; choices take effect only on Apply. */
export function FilterDropdown({ value, onApply, options = DEFAULT_FILTER_OPTIONS, label = 'Filter' }: FilterDropdownProps) {
  const [opened, setOpened] = useState(false);
  const [draft, setDraft] = useState<string[]>(value);

  const open = () => {
    setDraft(value);
    setOpened(true);
  };

  return (
    <Popover opened={opened} onChange={setOpened} position="bottom-end" width={260} shadow="md" trapFocus>
      <Popover.Target>
        <Button
          variant="default"
          leftSection={<IconFilter size={16} />}
          rightSection={value.length ? <Badge size="xs" circle>{value.length}</Badge> : null}
          onClick={() => (opened ? setOpened(false) : open())}
        >
          {label}
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
        <Text size="xs" fw={700} c="dimmed" tt="uppercase" mb="xs">
          {label}
        </Text>
        <Checkbox.Group value={draft} onChange={setDraft}>
          <Stack gap="xs">
            {options.map((option) => (
              <Checkbox key={option} value={option} label={option} />
            ))}
          </Stack>
        </Checkbox.Group>
        <Divider my="sm" />
        <Group justify="space-between">
          <Button
            variant="subtle"
            color="gray"
            size="xs"
            onClick={() => {
              setDraft([]);
              onApply([]);
              setOpened(false);
            }}
          >
            Clear
          </Button>
          <Button
            size="xs"
            onClick={() => {
              onApply(draft);
              setOpened(false);
            }}
          >
            Apply
          </Button>
        </Group>
      </Popover.Dropdown>
    </Popover>
  );
}
