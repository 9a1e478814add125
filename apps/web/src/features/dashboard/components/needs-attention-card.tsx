import type { CashSummary } from '@kidogo/contracts';
import { Badge, Group, NavLink, SimpleGrid, Skeleton, Stack, Text, ThemeIcon } from '@mantine/core';
import {
  IconCalendarDue,
  IconCalendarX,
  IconCash,
  IconChecklist,
  IconCircleCheck,
  IconMessageDollar,
  IconTool,
  IconUserCheck,
  type Icon,
} from '@tabler/icons-react';
import type { UseQueryResult } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { formatMoney } from '@/components/ui/money';
import { paths } from '@/config/paths';
import { ticketsHref } from '@/features/tickets/routes/screen-params';
import { managesOrganization, useSession } from '@/lib/session';
import { useCashWaiting, useHeldPaymentCount, usePromisesWaiting, useTicketsWaiting } from '../api/get-attention';
import { SectionCard } from './section-card';

export const NEEDS_ATTENTION = 'Needs Attention';
export const ALL_CLEAR = 'Nothing waits: all clear.';
export const LINE_FAILED = 'Failed to load';

/** The Promises to Pay view of Collections, on one status (the values its `status` param reads). */
const promisesHref = (status: 'due' | 'broken') => `${paths.app.collections.getHref()}?view=promises&status=${status}`;

/** What a line shows once its call answered. */
interface Figure {
  /** The figure: a count, an amount, or 'None'. */
  text: string;
  /** The badge's color: gray (dimmed) for nothing, red or orange for something overdue or broken. */
  color: string;
  /** A second line under the label. */
  detail?: string;
  /** Something waits (a count above 0, cash in hand). */
  waits: boolean;
}

type LineState = { status: 'loading' } | { status: 'failed' } | ({ status: 'ready' } & Figure);

/** A count: dimmed when 0, else `color`. */
const countFigure = (n: number, color = 'blue'): Figure => ({ text: n.toLocaleString(), color: n > 0 ? color : 'gray', waits: n > 0 });

/** A line from its query: its figure once answered (kept while a refresh fails, as the other cards keep theirs). */
function stateOf<T>(q: Pick<UseQueryResult<T>, 'data' | 'isError'>, figure: (data: T) => Figure): LineState {
  if (q.data !== undefined) return { status: 'ready', ...figure(q.data) };
  return q.isError ? { status: 'failed' } : { status: 'loading' };
}

const days = (n: number) => `${n} ${n === 1 ? 'day' : 'days'}`;

/**
 * The cash not handed over: what is in hand per currency (never added across
 * currencies), 'None' when nobody holds any, and who has held it too long.
 * `own`: the reply is the caller's own row (staff), so it speaks to them.
 */
export function cashFigure(summary: Pick<CashSummary, 'data' | 'totals' | 'overdue_days'>, own: boolean): Figure {
  const held = summary.totals.filter((t) => Number(t.in_hand) > 0);
  const overdue = new Set(summary.data.filter((c) => c.overdue && Number(c.in_hand) > 0).map((c) => c.username)).size;
  const detail =
    overdue === 0
      ? undefined
      : own
        ? `You have held it more than ${days(summary.overdue_days)}`
        : `${overdue} ${overdue === 1 ? 'user holds' : 'users hold'} it more than ${days(summary.overdue_days)}`;
  return {
    text: held.length ? held.map((t) => formatMoney(t.in_hand, t.currency)).join(' · ') : 'None',
    color: overdue > 0 ? 'orange' : held.length ? 'blue' : 'gray',
    detail,
    waits: held.length > 0,
  };
}

/** The line's accessible name: its label and what it shows ("Payments held for matching: 3"). */
function nameOf(label: string, state: LineState): string {
  if (state.status === 'loading') return `${label}: loading`;
  if (state.status === 'failed') return `${label}: ${LINE_FAILED}`;
  const detail = state.detail ? `, ${state.detail.charAt(0).toLowerCase()}${state.detail.slice(1)}` : '';
  return `${label}: ${state.text}${detail}`;
}

/** One thing that waits: the whole line is a link to where it is dealt with. */
function AttentionLine({ icon: IconCmp, label, to, state }: { icon: Icon; label: string; to: string; state: LineState }) {
  const ready = state.status === 'ready' ? state : null;
  return (
    <NavLink
      component={Link}
      to={to}
      aria-label={nameOf(label, state)}
      aria-busy={state.status === 'loading' || undefined}
      label={label}
      fw={500}
      description={
        ready?.detail ? (
          <Text span inherit c={ready.color}>
            {ready.detail}
          </Text>
        ) : undefined
      }
      leftSection={
        <ThemeIcon variant="light" color={ready && ready.color !== 'gray' ? ready.color : 'gray'} size="md" radius="md" aria-hidden>
          <IconCmp size={16} stroke={1.7} />
        </ThemeIcon>
      }
      rightSection={
        state.status === 'loading' ? (
          <Skeleton h={22} w={52} radius="sm" />
        ) : state.status === 'failed' ? (
          <Text size="xs" c="red" fw={500} style={{ whiteSpace: 'nowrap' }}>
            {LINE_FAILED}
          </Text>
        ) : (
          <Badge
            size="lg"
            radius="sm"
            variant="light"
            color={state.color}
            tt="none"
            fw={700}
            style={{ fontVariantNumeric: 'tabular-nums' }}
          >
            {state.text}
          </Badge>
        )
      }
      style={{ borderRadius: 'var(--mantine-radius-md)' }}
    />
  );
}

/**
 * What waits now, whatever the period: payments held for matching, tickets
 * not resolved, promises to pay due today or broken, and cash not handed
 * over; each line opens the screen where it is dealt with. Each line loads
 * and fails on its own, so one call failing leaves the others (and the rest
 * of the dashboard) as they are.
 */
export function NeedsAttentionCard() {
  const { user } = useSession();
  // Staff get only their own cash from the API.
  const own = !managesOrganization(user);
  const held = useHeldPaymentCount();
  const tickets = useTicketsWaiting();
  const promises = usePromisesWaiting();
  const cash = useCashWaiting();

  const lines = {
    held: stateOf(held, (n) => countFigure(n)),
    unresolved: stateOf(tickets, (t) => countFigure(t.unresolved)),
    mine: stateOf(tickets, (t) => countFigure(t.mine)),
    due: stateOf(promises, (p) => countFigure(p.counts.due)),
    broken: stateOf(promises, (p) => countFigure(p.counts.broken, 'red')),
    cash: stateOf(cash, (c) => cashFigure(c, own)),
  };
  // Every call answered and nothing waits.
  const allClear = Object.values(lines).every((l) => l.status === 'ready' && !l.waits);

  return (
    <SectionCard title={NEEDS_ATTENTION} icon={IconChecklist} color="orange">
      {/* Two columns from a wide screen up: the customers' money, then the staff's work (cash last: it may have a second line). */}
      <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="xl" verticalSpacing={4}>
        <Stack gap={4}>
          <AttentionLine icon={IconMessageDollar} label="Payments held for matching" to={paths.app.messages.getHref()} state={lines.held} />
          <AttentionLine icon={IconCalendarDue} label="Promises to pay due today" to={promisesHref('due')} state={lines.due} />
          <AttentionLine icon={IconCalendarX} label="Broken promises to pay" to={promisesHref('broken')} state={lines.broken} />
        </Stack>
        <Stack gap={4}>
          <AttentionLine icon={IconTool} label="Service tickets not resolved" to={ticketsHref()} state={lines.unresolved} />
          <AttentionLine icon={IconUserCheck} label="Tickets assigned to you" to={ticketsHref({ mine: true })} state={lines.mine} />
          <AttentionLine icon={IconCash} label={own ? 'Your cash in hand' : 'Cash not handed over'} to={paths.app.cash.getHref()} state={lines.cash} />
        </Stack>
      </SimpleGrid>
      {allClear ? (
        <Group gap="xs" mt="sm" px="sm" wrap="nowrap">
          <IconCircleCheck size={18} stroke={1.7} color="var(--mantine-color-green-text)" aria-hidden />
          <Text size="sm" c="dimmed">
            {ALL_CLEAR}
          </Text>
        </Group>
      ) : null}
    </SectionCard>
  );
}
