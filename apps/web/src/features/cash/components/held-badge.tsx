import { Badge } from '@mantine/core';
import type { CashCollector } from '../api/types';

/** "Held 5 days": cash kept longer than the organization allows before handing it over. Nothing when it is not overdue. */
export function HeldBadge({ collector }: { collector: Pick<CashCollector, 'overdue' | 'days_held'> }) {
  if (!collector.overdue || collector.days_held === null) return null;
  return (
    <Badge miw="max-content" color="red" variant="light" radius="sm">
      Held {collector.days_held} {collector.days_held === 1 ? 'day' : 'days'}
    </Badge>
  );
}
