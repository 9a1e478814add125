export const deviceActivityKeys = {
  all: ['device-activity'] as const,
  device: (serial: string) => [...deviceActivityKeys.all, serial] as const,
  page: (serial: string, page: number) => [...deviceActivityKeys.device(serial), page] as const,
  /** The device's discounts: under the device, so that whatever refreshes it refreshes them too. */
  discounts: (serial: string) => [...deviceActivityKeys.device(serial), 'discounts'] as const,
  /** A customer's discounts across their devices (the customer's page). */
  customerDiscounts: (customerId: number) => [...deviceActivityKeys.all, 'customer', customerId, 'discounts'] as const,
};
