import type { MessagesQuery } from './types';

export const messageKeys = {
  all: ['messages'] as const,
  lists: () => [...messageKeys.all, 'list'] as const,
  list: (q: MessagesQuery) => [...messageKeys.lists(), q] as const,
  stats: () => [...messageKeys.all, 'stats'] as const,
  /** Payments held for staff (status pending), a page at a time. */
  held: (offset: number) => [...messageKeys.all, 'held', offset] as const,
  devices: (query: string) => [...messageKeys.all, 'devices', query] as const,
};
