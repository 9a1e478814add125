export const deviceActivityKeys = {
  all: ['device-activity'] as const,
  device: (serial: string) => [...deviceActivityKeys.all, serial] as const,
  page: (serial: string, page: number) => [...deviceActivityKeys.device(serial), page] as const,
};
