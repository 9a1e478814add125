import type {
  WebhookCreateInput,
  WebhookDelivery,
  WebhookDeliveryListReply,
  WebhookDeliveryStatus,
  WebhookEndpoint,
  WebhookListReply,
  WebhookUpdateInput,
  WebhookWithSecret,
} from '@kidogo/contracts';
import { keepPreviousData, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** Query keys of the webhooks feature. */
export const webhookKeys = {
  all: ['webhooks'] as const,
  list: () => [...webhookKeys.all, 'list'] as const,
  deliveries: (id: number, status: WebhookDeliveryStatus | null) => [...webhookKeys.all, 'deliveries', id, status] as const,
};

export const DELIVERY_PAGE_SIZE = 25;

export const getWebhooks = (signal?: AbortSignal) => api.get<WebhookListReply>('/webhooks', { signal });

/** The endpoints and the events they can be sent; refreshed while deliveries are waiting, so their outcome shows up. */
export function useWebhooks() {
  return useQuery({
    queryKey: webhookKeys.list(),
    queryFn: ({ signal }) => getWebhooks(signal),
    refetchInterval: (q) => (q.state.data?.data.some((e) => e.pending > 0 && e.is_active) ? 5_000 : false),
  });
}

/** One endpoint's deliveries, newest first, a page of 25 at a time (Load older). */
export function useWebhookDeliveries(id: number | null, status: WebhookDeliveryStatus | null) {
  return useInfiniteQuery({
    queryKey: webhookKeys.deliveries(id ?? 0, status),
    queryFn: ({ signal, pageParam }) =>
      api.get<WebhookDeliveryListReply>(`/webhooks/${id}/deliveries`, {
        signal,
        query: { limit: DELIVERY_PAGE_SIZE, cursor: pageParam || undefined, status: status ?? undefined },
      }),
    initialPageParam: 0,
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    enabled: id !== null,
    placeholderData: keepPreviousData,
  });
}

function useWebhookMutation<V, R>(fn: (v: V) => Promise<R>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => qc.invalidateQueries({ queryKey: webhookKeys.all }) });
}

export const useCreateWebhook = () => useWebhookMutation((body: WebhookCreateInput) => api.post<WebhookWithSecret>('/webhooks', body));
export const useUpdateWebhook = () =>
  useWebhookMutation(({ id, ...body }: WebhookUpdateInput & { id: number }) => api.patch<WebhookEndpoint>(`/webhooks/${id}`, body));
export const useDeleteWebhook = () => useWebhookMutation((id: number) => api.delete<{ message: string }>(`/webhooks/${id}`));
export const useRotateWebhookSecret = () => useWebhookMutation((id: number) => api.post<WebhookWithSecret>(`/webhooks/${id}/rotate-secret`));
export const useTestWebhook = () => useWebhookMutation((id: number) => api.post<WebhookDelivery>(`/webhooks/${id}/test`));
export const useRedeliver = () =>
  useWebhookMutation(({ id, deliveryId }: { id: number; deliveryId: number }) =>
    api.post<WebhookDelivery>(`/webhooks/${id}/deliveries/${deliveryId}/redeliver`),
  );
