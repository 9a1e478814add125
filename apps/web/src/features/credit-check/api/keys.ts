/** Query keys of the follow-on sales rule and the customers' credit checks. */
export const creditCheckKeys = {
  all: ['credit-check'] as const,
  rule: () => [...creditCheckKeys.all, 'rule'] as const,
  customer: (customerId: number) => [...creditCheckKeys.all, 'customer', customerId] as const,
};
