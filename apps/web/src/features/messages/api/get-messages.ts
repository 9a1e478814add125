import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api, suspendableList } from '@/lib/api-client';
import { messageKeys } from './keys';
import type { MessageListReply, MessageRow, MessagesQuery } from './types';

export const DEFAULT_MESSAGE_PAGE_SIZE = 20;

export interface MessagePage {
  data: MessageRow[];
  total: number;
}

export const getMessages = (q: MessagesQuery, signal?: AbortSignal) =>
  suspendableList<MessagePage>(
    api
      .get<Partial<MessageListReply> | null>('/fetch_messages', {
        query: { page: q.page, page_size: q.page_size, search: q.search },
        signal,
      })
      .then((reply) => {
        const data = reply?.data ?? [];
        return { data, total: reply?.total_items ?? data.length };
      }),
    { total: 0 },
  );

export const messagesQueryOptions = (q: MessagesQuery) =>
  queryOptions({ queryKey: messageKeys.list(q), queryFn: ({ signal }) => getMessages(q, signal) });

/** Messages arrive while the page is open: poll every 30 s. */
export const useMessages = (q: MessagesQuery) =>
  useQuery({ ...messagesQueryOptions(q), placeholderData: keepPreviousData, refetchInterval: 30_000 });
