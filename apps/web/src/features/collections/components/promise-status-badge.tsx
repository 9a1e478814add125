import { Badge } from '@mantine/core';
import { PROMISE_STATUS_LABELS } from '@kidogo/contracts';
import type { PromiseStatus } from '../api/types';

/**
 * Each status's colour: due today warm (call now), broken red as on the
 * Last Contact column, upcoming blue (nothing to do yet), kept green, paid
 * late gray (settled, though not as promised; teal read as a second green
 * beside Kept). The status cards and the table's badges share it so one
 * reads the other.
 */
export const PROMISE_STATUS_COLORS: Record<PromiseStatus, string> = {
  due: 'orange',
  broken: 'red',
  upcoming: 'blue',
  kept: 'green',
  paid_late: 'gray',
};

/** A broken promise is filled, as "Promise broken" is on Out of Credit: the one that needs a call. */
export function PromiseStatusBadge({ status }: { status: PromiseStatus }) {
  return (
    <Badge color={PROMISE_STATUS_COLORS[status]} variant={status === 'broken' ? 'filled' : 'light'} radius="sm" miw="max-content">
      {PROMISE_STATUS_LABELS[status]}
    </Badge>
  );
}
