import { Badge, Group, Text } from '@mantine/core';
import { warrantyText, type DeviceWarranty } from '@kidogo/contracts';
import { formatDate } from '@/components/ui/date-text';

const monthsText = (n: number) => (n === 1 ? '1 month' : `${n} months`);

/** How long and from when: "12 months from 6 Dec 2026" (the day the device's account began). */
export const warrantyTerm = (w: DeviceWarranty) => `${monthsText(w.months)} from ${formatDate(w.starts_at)}`;

/** "In warranty until 6 Dec 2027" in green, or "Out of warranty since 6 Dec 2025" in gray. */
export function WarrantyBadge({ warranty, size }: { warranty: Pick<DeviceWarranty, 'until' | 'in_warranty'>; size?: 'xs' | 'sm' }) {
  return (
    <Badge size={size} miw="max-content" color={warranty.in_warranty ? 'green' : 'gray'} variant="light" radius="sm" tt="none">
      {warrantyText(warranty, (iso) => formatDate(iso))}
    </Badge>
  );
}

/** A device's warranty: the badge, and its term in smaller text. */
export function DeviceWarrantyLine({ warranty }: { warranty: DeviceWarranty }) {
  return (
    <Group gap={6} wrap="wrap">
      <WarrantyBadge warranty={warranty} />
      <Text span size="xs" c="dimmed">
        {warrantyTerm(warranty)}
      </Text>
    </Group>
  );
}
