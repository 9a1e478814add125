import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { adminKeys } from './keys';
import type { AdminCreateUserInput, AdminUser, UserList } from './types';
import { useAdminMutation } from './use-admin-mutation';

/** The Users tab lists 50 at a time (spec §9). */
export const USER_PAGE_SIZE = 50;

export async function getUsers(search: string, offset: number, signal?: AbortSignal) {
  const reply = await api.get<Partial<UserList> | AdminUser[] | null>('/admin/users', {
    query: { limit: USER_PAGE_SIZE, offset, search: search || undefined },
    signal,
  });
  const data = Array.isArray(reply) ? reply : (reply?.data ?? []);
  return { data, total: Array.isArray(reply) ? reply.length : (reply?.pagination?.total ?? data.length) };
}
export const usersQueryOptions = (search: string, offset: number) =>
  queryOptions({ queryKey: adminKeys.userList(search, offset), queryFn: ({ signal }) => getUsers(search, offset, signal) });
export const useUsers = (search: string, offset: number) => useQuery({ ...usersQueryOptions(search, offset), placeholderData: keepPreviousData });

export const createUser = (input: AdminCreateUserInput) => api.post<AdminUser>('/admin/users', input);
export const useCreateUser = () => useAdminMutation(createUser);
