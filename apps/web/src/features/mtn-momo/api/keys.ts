/** Query keys of the MTN MoMo settings. Its payment requests are M-Pesa Express's (mpesaExpressKeys): one list for both. */
export const mtnMomoKeys = {
  all: ['mtn-momo'] as const,
  settings: () => [...mtnMomoKeys.all, 'settings'] as const,
};
