import { Badge, Group, Stack, Text, Tooltip } from '@mantine/core';
import {
  REPAYMENT_BEHIND_SHARE,
  REPAYMENT_ON_TRACK_SHARE,
  REPAYMENT_STANDING_LABELS,
  type Repayment,
  type RepaymentStanding,
} from '@kidogo/contracts';
import { formatMoney } from '@/components/ui/money';

const COLORS: Record<RepaymentStanding, string> = { paid_off: 'green', on_track: 'teal', behind: 'yellow', far_behind: 'red' };

/** What the standings mean, for the badge's tooltip and the card's note. */
export const STANDING_RULE = `On track: ${REPAYMENT_ON_TRACK_SHARE}% or more of what the plan expects paid by today; behind: ${REPAYMENT_BEHIND_SHARE}% or more; far behind: less.`;

/** The standing as a badge; a dash without one (no plan with a price to own). */
export function RepaymentBadge({ repayment, size = 'sm' }: { repayment: Repayment | undefined; size?: 'sm' | 'md' | 'lg' }) {
  if (!repayment?.standing) {
    return (
      <Text size="sm" c="dimmed">
        —
      </Text>
    );
  }
  return (
    <Tooltip label={STANDING_RULE} multiline w={260} withArrow>
      <Badge miw="max-content" color={COLORS[repayment.standing]} variant="light" radius="sm" size={size}>
        {REPAYMENT_STANDING_LABELS[repayment.standing]}
      </Badge>
    </Tooltip>
  );
}

/** In words: what was paid against what the plan expects by today, of a customer's devices or of one `device`. */
export function repaymentSentence(repayment: Repayment, currency: string | null, device = false): string {
  if (repayment.expected_by_today === null) return device ? 'No plan with a price to own: nothing says what to expect.' : 'No device on a plan with a price to own: nothing says what to expect.';
  if (repayment.standing === 'paid_off') return device ? 'Paid off: nothing more is expected.' : 'Every device on a plan is paid off.';
  const paid = formatMoney(repayment.paid_towards ?? '0', currency);
  if (repayment.repaid_share === null) return `Nothing is due yet (the plan asks nothing upfront and the grace days are not over); paid ${paid}.`;
  return `Paid ${paid} of the ${formatMoney(repayment.expected_by_today, currency)} the plan expects by today: ${repayment.repaid_share}%.`;
}

/** A device's standing in a table cell: the badge and the share (a dash from a reply without one). */
export function RepaymentCell({ repayment }: { repayment: Repayment | undefined }) {
  return (
    <Group gap={6} wrap="nowrap">
      <RepaymentBadge repayment={repayment} />
      {repayment && repayment.repaid_share !== null && repayment.standing !== 'paid_off' ? (
        <Text size="xs" c="dimmed" style={{ fontVariantNumeric: 'tabular-nums' }}>
          {repayment.repaid_share}%
        </Text>
      ) : null}
    </Group>
  );
}

/** The customer's standing with the sentence that explains it, for the Payment Progress card. */
export function RepaymentSummary({ repayment, currency }: { repayment: Repayment; currency: string | null }) {
  return (
    <Stack gap={4} mt="md" role="group" aria-label="Repayment standing">
      <Group justify="space-between">
        <Text size="sm" fw={600}>
          Repayment standing
        </Text>
        <RepaymentBadge repayment={repayment} size="md" />
      </Group>
      <Text size="sm" c="dimmed">
        {repaymentSentence(repayment, currency)}
      </Text>
    </Stack>
  );
}
