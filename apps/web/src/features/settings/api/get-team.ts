import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { settingsKeys } from './keys';
import type { TeamUserList } from './types';

/** Team rows per page (GET /users takes up to 200). */
export const TEAM_PAGE_SIZE = 20;

/** The users of the caller's own organization; `search` matches username or email. */
export const getTeam = (search: string, offset: number, signal?: AbortSignal) =>
  api.get<TeamUserList>('/users', { query: { limit: TEAM_PAGE_SIZE, offset, search: search || undefined }, signal });

export const teamQueryOptions = (search: string, offset: number) =>
  queryOptions({ queryKey: settingsKeys.teamList(search, offset), queryFn: ({ signal }) => getTeam(search, offset, signal) });

export const useTeam = (search: string, offset: number) => useQuery({ ...teamQueryOptions(search, offset), placeholderData: keepPreviousData });
