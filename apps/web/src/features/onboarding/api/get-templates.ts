import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { ONBOARDING_PAGE_SIZE } from './constants';
import { onboardingKeys } from './keys';
import type { OptionPage, TemplateOption } from './types';

type Paged = { data?: TemplateOption[]; pagination?: { total?: number }; total?: number };

/**
 * Spec §7: the reply is read as data.data with data.pagination.total, or a bare
 * array, or a data array with total.
 */
export function readTemplatePage(reply: unknown): OptionPage<TemplateOption> {
  if (Array.isArray(reply)) return { data: reply as TemplateOption[], total: reply.length };
  const r = (reply ?? {}) as { data?: Paged | TemplateOption[]; total?: number; pagination?: { total?: number } };
  if (Array.isArray(r.data)) return { data: r.data, total: r.total ?? r.pagination?.total ?? r.data.length };
  const inner = r.data ?? {};
  const data = inner.data ?? [];
  return { data, total: inner.pagination?.total ?? inner.total ?? data.length };
}

export async function getTemplates(search: string, page: number, signal?: AbortSignal) {
  const reply = await api.get<unknown>('/payments/templates', {
    query: {
      limit: ONBOARDING_PAGE_SIZE,
      offset: (page - 1) * ONBOARDING_PAGE_SIZE,
      search_term: search || undefined,
      search_field: 'template_name',
    },
    signal,
  });
  return readTemplatePage(reply);
}

export const templateOptionsQueryOptions = (search: string, page: number) =>
  queryOptions({
    queryKey: onboardingKeys.templates(search, page),
    queryFn: ({ signal }) => getTemplates(search, page, signal),
  });

/** Templates load when the user asks (Load Payment Templates), then follow the search and page. */
export const useTemplateOptions = (search: string, page: number, enabled: boolean) =>
  useQuery({ ...templateOptionsQueryOptions(search, page), enabled, placeholderData: keepPreviousData });
