import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { customerKeys } from './keys';
import type { Customer, CustomerUpdate } from './types';
import { refreshAfterWrite } from '@/lib/query-client';

export const updateCustomer = ({ id, changes }: { id: number; changes: CustomerUpdate }) =>
  api.put<Customer>(`/customers/${id}`, changes);

export function useUpdateCustomer() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: updateCustomer,
    onSuccess: (customer, { id }) => {
      if (customer && typeof customer === 'object') qc.setQueryData(customerKeys.detail(id), customer);
      return refreshAfterWrite(qc, { queryKey: customerKeys.all });
    },
  });
}
