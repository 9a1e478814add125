import { useQuery } from '@tanstack/react-query';
import { api } from './api-client';

/**
 * The currency the organization is paid in, read from its latest applied
 * payment (a held one may be in a currency the organization does not use).
 * Message and history rows carry amounts without a currency; without this
 * they would read in the spec's display default (USD) even when the money
 * arrived in shillings. null when there are no payments yet.
 */
export async function getOrganizationCurrency(signal?: AbortSignal): Promise<string | null> {
  try {
    const reply = await api.get<{ data?: { currency?: string | null }[] } | null>('/payments', { query: { limit: 1, status: 'completed' }, signal });
    return reply?.data?.[0]?.currency?.trim() || null;
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    return null;
  }
}

export function useOrganizationCurrency(): string | null {
  const { data } = useQuery({
    queryKey: ['organization-currency'],
    queryFn: ({ signal }) => getOrganizationCurrency(signal),
    staleTime: 5 * 60_000,
  });
  return data ?? null;
}
