import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, ApiError } from '@/lib/api-client';
import type { OnboardingInput, OnboardingReply } from './types';
import { refreshAfterWrite } from '@/lib/query-client';

/** What the form sends: the contract's input with the ids chosen. */
export interface OnboardingRequest {
  customer_id: number;
  item_serial_number: string;
  template_id?: number;
  /** An owner's or admin's reason to give the device although the follow-on sales rule refuses the customer. */
  override_reason?: string;
}

export type OnboardingOutcome =
  | { kind: 'complete' }
  /** Two-call fallback only: the device was assigned, the template was not. */
  | { kind: 'template-failed'; error: unknown };

/** An API without POST /onboarding answers 404 'Cannot POST …' (or 405), not a business 404. */
export function isMissingEndpoint(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  if (error.status === 405) return true;
  return error.status === 404 && /^Cannot POST\b/i.test(error.message);
}

/**
 * One transaction on the server: the device and the template are assigned
 * together or not at all. Where the server has no /onboarding, the two calls
 * of the spec are made in turn; then only the template step can fail on its own.
 */
export async function completeOnboarding(input: OnboardingRequest): Promise<OnboardingOutcome> {
  try {
    const body: OnboardingInput = { ...input, organization_id: '' };
    await api.post<OnboardingReply>('/onboarding', body);
    return { kind: 'complete' };
  } catch (error) {
    if (!isMissingEndpoint(error)) throw error;
  }
  await api.post('/items/assign', {
    customer_id: input.customer_id,
    item_serial_number: input.item_serial_number,
    ...(input.override_reason ? { override_reason: input.override_reason } : {}),
    organization_id: '',
  });
  if (input.template_id === undefined) return { kind: 'complete' };
  try {
    await api.post('/payments/templates/assign', { customer_id: input.customer_id, template_id: input.template_id });
    return { kind: 'complete' };
  } catch (error) {
    return { kind: 'template-failed', error };
  }
}

export function useCompleteOnboarding() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: completeOnboarding,
    // Devices, customers and metrics all changed (and the device leaves the item search).
    onSettled: () => refreshAfterWrite(qc),
  });
}
