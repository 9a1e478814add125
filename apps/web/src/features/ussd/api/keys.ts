/**
 * Query keys of the USSD menu. Turning it on or off and a new address write the reply over `settings`; the sessions
 * are only read (dialling, not this card, adds to them).
 */
export const ussdKeys = {
  all: ['ussd'] as const,
  settings: () => [...ussdKeys.all, 'settings'] as const,
  sessions: () => [...ussdKeys.all, 'sessions'] as const,
  customerSessions: (customerId: number) => [...ussdKeys.all, 'sessions', 'customer', customerId] as const,
};
