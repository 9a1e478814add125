import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, ServiceBlockedError } from '@/lib/api-client';
import { templateKeys } from './keys';
import type { PaymentTemplate, TemplateListReply } from './types';

/** The templates page loads them all at once (spec §9) and searches in the browser. */
export const TEMPLATES_FETCH_LIMIT = 1000;

export interface TemplateList {
  templates: PaymentTemplate[];
  total: number;
  suspended: boolean;
}

type Reply = TemplateListReply | { data: PaymentTemplate[]; total?: number } | PaymentTemplate[];

/** Read as data.data with data.pagination.total, else a data array, else a bare array (spec §7). */
export function readTemplates(reply: Reply | null | undefined): Omit<TemplateList, 'suspended'> {
  if (Array.isArray(reply)) return { templates: reply, total: reply.length };
  const data = reply?.data;
  if (Array.isArray(data)) return { templates: data, total: (reply as { total?: number }).total ?? data.length };
  const templates = data?.data ?? [];
  return { templates, total: data?.pagination?.total ?? templates.length };
}

export async function getTemplates(signal?: AbortSignal): Promise<TemplateList> {
  try {
    const reply = await api.get<Reply>('/payments/templates', { query: { limit: TEMPLATES_FETCH_LIMIT, offset: 0 }, signal });
    return { ...readTemplates(reply), suspended: false };
  } catch (error) {
    if (error instanceof ServiceBlockedError) return { templates: [], total: 0, suspended: true };
    throw error;
  }
}

export const templatesQueryOptions = () => queryOptions({ queryKey: templateKeys.list(), queryFn: ({ signal }) => getTemplates(signal) });

export const useTemplates = () => useQuery(templatesQueryOptions());
