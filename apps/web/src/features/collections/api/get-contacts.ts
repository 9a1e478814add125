import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { collectionKeys } from './keys';
import type { Contact, ContactListReply } from './types';

/** GET /collections/{item_id}/contacts: the device's calls and visits with its current customer, newest first. */
export const getContacts = (itemId: number, signal?: AbortSignal): Promise<Contact[]> =>
  api.get<Partial<ContactListReply> | null>(`/collections/${itemId}/contacts`, { signal }).then((reply) => reply?.data ?? []);

export const contactsQueryOptions = (itemId: number) =>
  queryOptions({ queryKey: collectionKeys.contacts(itemId), queryFn: ({ signal }) => getContacts(itemId, signal) });

export const useContacts = (itemId: number) => useQuery(contactsQueryOptions(itemId));
