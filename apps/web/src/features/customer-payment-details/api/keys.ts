export const paymentDetailsKeys = {
  all: ['customer-payment-details'] as const,
  detail: (customerId: string) => [...paymentDetailsKeys.all, customerId] as const,
};
