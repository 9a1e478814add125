/** Customers, items and templates are listed 5 per page in the onboarding flow (spec §9). */
export const ONBOARDING_PAGE_SIZE = 5;

/** How long the success message stays before the form starts over (spec §9). */
export const SUCCESS_RESET_MS = 3000;

export const ONBOARDING_TEXTS = {
  noCustomer: 'Please select a customer first.',
  noItem: 'Please select an item to assign.',
  success: 'Customer onboarding completed successfully!',
  failed: 'Failed to complete onboarding. Please try again.',
  templatesFailed: 'Failed to load payment templates.',
  partial: 'Item assigned successfully, but failed to assign payment template. You can assign the template separately.',
} as const;
