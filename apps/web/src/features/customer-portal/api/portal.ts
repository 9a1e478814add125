import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { PORTAL_PATH, type PortalLinkCreated, type PortalLinkReply, type PortalView } from '@kidogo/contracts';
import { api } from '@/lib/api-client';

export const portalKeys = {
  link: (customerId: number) => ['portal-link', customerId] as const,
  view: (token: string) => ['portal-view', token] as const,
  /** A payment the customer asked for from their page (Pay Now), followed until it ends. */
  payment: (token: string, requestId: number) => ['portal-payment', token, requestId] as const,
};

/** GET /customers/{id}/portal-link: the customer's link (made when, by whom, until when, opened how often), or null. */
export function usePortalLink(customerId: number, enabled = true) {
  return useQuery({
    queryKey: portalKeys.link(customerId),
    queryFn: () => api.get<PortalLinkReply>(`/customers/${customerId}/portal-link`),
    enabled,
    // Read again each time the dialog opens: the customer may have opened their page meanwhile.
    refetchOnMount: 'always',
  });
}

/** POST /customers/{id}/portal-link: a new link; the customer's last one stops. */
export function useCreatePortalLink(customerId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<PortalLinkCreated>(`/customers/${customerId}/portal-link`),
    onSuccess: () => void qc.invalidateQueries({ queryKey: portalKeys.link(customerId) }),
  });
}

/** DELETE /customers/{id}/portal-link: the link no longer opens the page. */
export function useRevokePortalLink(customerId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api.delete<{ message: string }>(`/customers/${customerId}/portal-link`),
    onSuccess: () => void qc.invalidateQueries({ queryKey: portalKeys.link(customerId) }),
  });
}

/** The whole link: the API's when the installation knows its address (PUBLIC_URL), else this app's own. */
export const portalUrl = (made: Pick<PortalLinkCreated, 'url' | 'token'>, origin = window.location.origin) =>
  made.url ?? `${origin}${PORTAL_PATH}/${made.token}`;

/** GET /portal/{token}: the customer's page, without signing in. */
export function usePortalView(token: string) {
  return useQuery({
    queryKey: portalKeys.view(token),
    queryFn: () => api.get<PortalView>(`/portal/${encodeURIComponent(token)}`, { auth: false }),
    retry: false,
  });
}
