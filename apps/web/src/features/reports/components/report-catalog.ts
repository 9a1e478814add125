import { IconArrowsExchange, IconChartLine, IconDiscount, IconCoins, IconDeviceMobileDollar, IconId, IconKey, IconLock, IconTool, IconUsers, IconUsersGroup, type Icon } from '@tabler/icons-react';
import { NO_AGENT } from '@kidogo/contracts';
import { lastDays, type DayRange } from '@/components/ui/date-range-picker';
import { paths } from '@/config/paths';
import type { ReportKind, ReportRow } from '../api/types';

/** Where a cell of a report leads: the screen to act on it, and what the link says it opens. */
export interface CellLink {
  to: string;
  title: string;
}

export interface ReportInfo {
  kind: ReportKind;
  title: string;
  description: string;
  icon: Icon;
  color: string;
  /** The period a report opens with, ending `today` (the business day). */
  defaultRange: (today: string) => DayRange;
  /** A cell that leads somewhere (a row's worklist), or null; without it, no cell of the report is a link. */
  cellLink?: (row: ReportRow, columnKey: string) => CellLink | null;
}

/** The agent's devices out of credit now, on Collections filtered by that agent ('(no agent)': the customers without one). */
function agentCellLink(row: ReportRow, columnKey: string): CellLink | null {
  const agent = row.agent;
  if (columnKey !== 'out_of_credit' || typeof agent !== 'string' || !agent || !(Number(row.out_of_credit) > 0)) return null;
  return {
    to: `${paths.app.collections.getHref()}?agent=${encodeURIComponent(agent)}`,
    title: `Open in Collections: the devices of ${agent === NO_AGENT ? 'customers without an agent' : `agent ${agent}`} out of credit`,
  };
}

/** A swapped device's serial (the faulty one or its replacement): its page, with its history and its swaps. */
function swapCellLink(row: ReportRow, columnKey: string): CellLink | null {
  const serial = row[columnKey];
  if ((columnKey !== 'serial_number' && columnKey !== 'new_serial_number') || typeof serial !== 'string' || !serial) return null;
  return { to: paths.app.deviceActivity.getHref(serial), title: `Open device ${serial}` };
}

/** A discounted device's serial: its page, with its discounts. */
function discountCellLink(row: ReportRow, columnKey: string): CellLink | null {
  const serial = row[columnKey];
  if (columnKey !== 'serial_number' || typeof serial !== 'string' || !serial) return null;
  return { to: paths.app.deviceActivity.getHref(serial), title: `Open device ${serial}` };
}

/**
 * The three report cards of spec §2, the repossessions with their write-offs, the sales agents, the service tickets,
 * the portfolio by month of sale, the customers' documents, the M-Pesa Express requests, the device swaps and the discounts.
 */
export const REPORTS: ReportInfo[] = [
  {
    kind: 'revenue',
    title: 'Revenue Report',
    description: 'Monthly revenue analysis: money received and number of payments per month.',
    icon: IconCoins,
    color: 'teal',
    defaultRange: (today) => lastDays(365, today),
  },
  {
    kind: 'customers',
    title: 'Customer Report',
    description:
      'Customers registered in the period with their devices, total paid, remaining balance and repayment standing: what their plans expect paid by today and how much of it they paid.',
    icon: IconUsers,
    color: 'blue',
    defaultRange: (today) => lastDays(365, today),
  },
  {
    kind: 'tokens',
    title: 'Token Report',
    description: 'Tokens generated per day and type, with the days of use they carried.',
    icon: IconKey,
    color: 'violet',
    defaultRange: (today) => lastDays(30, today),
  },
  {
    kind: 'repossessions',
    title: 'Repossession Report',
    description: 'Devices taken back in the period, with what each customer had paid and what was written off.',
    icon: IconLock,
    color: 'red',
    defaultRange: (today) => lastDays(365, today),
  },
  {
    kind: 'agents',
    title: 'Agent Report',
    description: 'Each sales agent: customers and devices brought in, what their customers paid, their commission, and who is behind now.',
    icon: IconUsersGroup,
    color: 'orange',
    defaultRange: (today) => lastDays(30, today),
    cellLink: agentCellLink,
  },
  {
    kind: 'tickets',
    title: 'Service Ticket Report',
    description: 'Service tickets opened in the period: what went wrong, who took it, how many days it took and the free days given.',
    icon: IconTool,
    color: 'grape',
    defaultRange: (today) => lastDays(90, today),
  },
  {
    kind: 'portfolio',
    title: 'Portfolio Report',
    description:
      'Devices given each month and how they repay: contract value, collected, the share repaid by month 3, 6 and 12, PAR30 and write-offs.',
    icon: IconChartLine,
    color: 'cyan',
    // Two years of cohorts, so that a year's cohorts can be read at 12 months.
    defaultRange: (today) => lastDays(730, today),
  },
  {
    kind: 'documents',
    title: 'Documents Report',
    description: "Devices given by each sales agent and how many of their customers' files are complete: the ID card's two sides, a photo, the signed agreement.",
    icon: IconId,
    color: 'indigo',
    defaultRange: (today) => lastDays(90, today),
  },
  {
    kind: 'payment_requests',
    title: 'Ask to Pay Report',
    description: 'Ask to Pay (M-Pesa Express, MTN MoMo, Airtel Money) by who sent it: requests sent, how many customers paid and how much, cancelled, failed, and the share paid.',
    icon: IconDeviceMobileDollar,
    color: 'green',
    defaultRange: (today) => lastDays(30, today),
  },
  {
    kind: 'swaps',
    title: 'Device Swap Report',
    description: 'Faulty devices replaced from stock in the period, with their product, maker and why: the list a warranty claim to the maker needs.',
    icon: IconArrowsExchange,
    color: 'yellow',
    defaultRange: (today) => lastDays(365, today),
    cellLink: swapCellLink,
  },
  {
    kind: 'discounts',
    title: 'Discount Report',
    description: 'Discounts given off what customers had left to pay: the device, the amount, what was left before and after, why and who.',
    icon: IconDiscount,
    color: 'pink',
    defaultRange: (today) => lastDays(365, today),
    cellLink: discountCellLink,
  },
];

export const reportInfo = (kind: ReportKind) => REPORTS.find((r) => r.kind === kind)!;
