import type { TemplateListReply } from '@kidogo/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from './api-client';

/** One guess: its currency, or null when it has none or its call failed (an abort still ends the query). */
async function attempt(read: () => Promise<string | null | undefined>): Promise<string | null> {
  try {
    return (await read())?.trim() || null;
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    return null;
  }
}

/**
 * The currency the organization is paid in. Message and history rows carry
 * amounts without a currency; without this they would read in the spec's
 * display default (USD) even when the money arrives in shillings.
 * First the latest applied payment (a held one may be in a currency the
 * organization does not use); a new organization has none yet, so then the
 * currency of its payment plans (its newest template), which is what its
 * devices are priced in. null when there is neither.
 */
export async function getOrganizationCurrency(signal?: AbortSignal): Promise<string | null> {
  const paid = await attempt(async () => {
    const reply = await api.get<{ data?: { currency?: string | null }[] } | null>('/payments', { query: { limit: 1, status: 'completed' }, signal });
    return reply?.data?.[0]?.currency;
  });
  if (paid) return paid;
  return attempt(async () => {
    const reply = await api.get<Partial<TemplateListReply> | null>('/payments/templates', { query: { limit: 1 }, signal });
    return reply?.data?.data?.[0]?.currency;
  });
}

export function useOrganizationCurrency(): string | null {
  const { data } = useQuery({
    queryKey: ['organization-currency'],
    queryFn: ({ signal }) => getOrganizationCurrency(signal),
    staleTime: 5 * 60_000,
  });
  return data ?? null;
}
