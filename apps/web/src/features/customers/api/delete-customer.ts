import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { refreshAfterWrite } from '@/lib/query-client';

/** DELETE /customers/{id}: refused (409, saying how many) while the customer has devices, payments or tokens. */
export const deleteCustomer = (customerId: number) => api.delete<{ message: string }>(`/customers/${customerId}`);

export function useDeleteCustomer() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: deleteCustomer,
    // The customer lists, counts and the dashboard's customer figures change.
    onSuccess: () => refreshAfterWrite(qc),
  });
}
