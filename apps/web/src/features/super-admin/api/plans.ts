import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { adminKeys } from './keys';
import type { OrgPlan, Plan, PlanInput } from './types';
import { useAdminMutation } from './use-admin-mutation';

export async function getPlans(signal?: AbortSignal): Promise<Plan[]> {
  return (await api.get<{ data?: Plan[] } | null>('/admin/plans', { signal }))?.data ?? [];
}
export const plansQueryOptions = () => queryOptions({ queryKey: adminKeys.plans(), queryFn: ({ signal }) => getPlans(signal) });
export const usePlans = () => useQuery(plansQueryOptions());

export const savePlan = ({ editing, input }: { editing: boolean; input: PlanInput }) => {
  if (!editing) return api.post<Plan>('/admin/plans', input);
  const { plan_code, ...changes } = input;
  return api.put<Plan>(`/admin/plans/${encodeURIComponent(plan_code)}`, changes);
};
export const useSavePlan = () => useAdminMutation(savePlan);

/** Refused while organizations are on the plan. */
export const deletePlan = (code: string) => api.delete<{ message: string }>(`/admin/plans/${encodeURIComponent(code)}`);
export const useDeletePlan = () => useAdminMutation(deletePlan);

export async function getOrgPlans(signal?: AbortSignal): Promise<OrgPlan[]> {
  return (await api.get<{ data?: OrgPlan[] } | null>('/admin/org-plans', { signal }))?.data ?? [];
}
export const orgPlansQueryOptions = () => queryOptions({ queryKey: adminKeys.orgPlans(), queryFn: ({ signal }) => getOrgPlans(signal) });
export const useOrgPlans = () => useQuery(orgPlansQueryOptions());

export const assignOrgPlan = (input: { organization_id: string; plan_code: string }) => api.post<OrgPlan>('/admin/org-plans', input);
export const useAssignOrgPlan = () => useAdminMutation(assignOrgPlan);

export const unassignOrgPlan = (organizationId: string) =>
  api.delete<{ message: string }>(`/admin/org-plans/${encodeURIComponent(organizationId)}`);
export const useUnassignOrgPlan = () => useAdminMutation(unassignOrgPlan);
