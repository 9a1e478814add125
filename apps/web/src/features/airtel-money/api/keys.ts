/** Query keys of the Airtel Money settings. Its payment requests are M-Pesa Express's (mpesaExpressKeys): one list for all providers. */
export const airtelMoneyKeys = {
  all: ['airtel-money'] as const,
  settings: () => [...airtelMoneyKeys.all, 'settings'] as const,
};
