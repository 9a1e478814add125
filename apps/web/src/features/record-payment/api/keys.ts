/** Query keys of the record-payment feature. */
export const recordPaymentKeys = {
  all: ['record-payment'] as const,
  customerDevices: (customerId: number) => [...recordPaymentKeys.all, 'customer-devices', customerId] as const,
  cashCollectors: () => [...recordPaymentKeys.all, 'cash-collectors'] as const,
};
