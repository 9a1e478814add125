/** Query keys of the settings feature. */
export const settingsKeys = {
  all: ['settings'] as const,
  health: () => [...settingsKeys.all, 'health'] as const,
  apiKey: () => [...settingsKeys.all, 'api-key'] as const,
  smsProvider: () => [...settingsKeys.all, 'sms-provider'] as const,
};
