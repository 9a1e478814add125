import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api, suspendableList } from '@/lib/api-client';
import { templateKeys } from './keys';
import type { TemplateAssignmentsQuery, TemplateAssignmentsReply } from './types';

export const ASSIGNMENTS_PAGE_SIZE = 10;

export const getAssignments = (q: TemplateAssignmentsQuery, signal?: AbortSignal) =>
  suspendableList(api.get<TemplateAssignmentsReply>('/payments/templates/assignments', { query: { ...q }, signal }), {
    pagination: { total: 0, total_pages: 0, limit: q.limit, offset: q.offset },
  });

export const assignmentsQueryOptions = (q: TemplateAssignmentsQuery) =>
  queryOptions({ queryKey: templateKeys.assignments(q), queryFn: ({ signal }) => getAssignments(q, signal) });

export const useAssignments = (q: TemplateAssignmentsQuery, enabled = true) =>
  useQuery({ ...assignmentsQueryOptions(q), enabled, placeholderData: keepPreviousData });
