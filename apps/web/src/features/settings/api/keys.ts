/** Query keys of the settings feature. */
export const settingsKeys = {
  all: ['settings'] as const,
  health: () => [...settingsKeys.all, 'health'] as const,
  apiKey: () => [...settingsKeys.all, 'api-key'] as const,
  smsProvider: () => [...settingsKeys.all, 'sms-provider'] as const,
  reminders: () => [...settingsKeys.all, 'reminders'] as const,
  commissions: () => [...settingsKeys.all, 'commissions'] as const,
  phoneCountry: () => [...settingsKeys.all, 'phone-country'] as const,
  agreement: () => [...settingsKeys.all, 'agreement'] as const,
  security: () => [...settingsKeys.all, 'security'] as const,
  team: () => [...settingsKeys.all, 'team'] as const,
  teamList: (search: string, offset: number) => [...settingsKeys.team(), search, offset] as const,
};
