import type { TemplateAssignmentsQuery } from './types';

/** Query keys of the payment templates feature; every mutation invalidates `all`. */
export const templateKeys = {
  all: ['payment-templates'] as const,
  list: () => [...templateKeys.all, 'list'] as const,
  performance: () => [...templateKeys.all, 'performance'] as const,
  templatePerformance: (id: number) => [...templateKeys.all, 'performance', id] as const,
  usage: (id: number) => [...templateKeys.all, 'usage', id] as const,
  assignments: (q: TemplateAssignmentsQuery) => [...templateKeys.all, 'assignments', q] as const,
  customerChoices: (search: string, page: number) => [...templateKeys.all, 'customer-choices', search, page] as const,
  customerDevices: (customerId: number) => [...templateKeys.all, 'customer-devices', customerId] as const,
};
