import type { DateRange, RevenueInterval } from './types';

/** Query keys of the dashboard; Refresh invalidates `all`. */
export const dashboardKeys = {
  all: ['dashboard'] as const,
  summary: (range: DateRange) => [...dashboardKeys.all, 'summary', range] as const,
  customers: () => [...dashboardKeys.all, 'customers'] as const,
  payments: (range: DateRange) => [...dashboardKeys.all, 'payments', range] as const,
  usage: (range: DateRange) => [...dashboardKeys.all, 'usage', range] as const,
  revenue: (range: DateRange, interval: RevenueInterval) => [...dashboardKeys.all, 'revenue', range, interval] as const,
  health: () => [...dashboardKeys.all, 'health'] as const,
  /** What waits now (the Needs Attention card): not of the period, each from its own screen's endpoint. */
  attention: () => [...dashboardKeys.all, 'attention'] as const,
  heldPayments: () => [...dashboardKeys.attention(), 'held-payments'] as const,
  tickets: () => [...dashboardKeys.attention(), 'tickets'] as const,
  promises: () => [...dashboardKeys.attention(), 'promises'] as const,
  cash: () => [...dashboardKeys.attention(), 'cash'] as const,
};
