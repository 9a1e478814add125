export const onboardingKeys = {
  all: ['onboarding'] as const,
  customers: (search: string, page: number) => [...onboardingKeys.all, 'customers', search, page] as const,
  items: (search: string, page: number) => [...onboardingKeys.all, 'items', search, page] as const,
  templates: (search: string, page: number) => [...onboardingKeys.all, 'templates', search, page] as const,
};
