import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { customerKeys } from './keys';
import type { Customer, CustomerInput } from './types';
import { refreshAfterWrite } from '@/lib/query-client';

export const registerCustomer = (input: CustomerInput) => api.post<Customer>('/register-customer', input);

/** Errors are left to the form, which shows 'Failed to add customer' with the server's reason. */
export function useRegisterCustomer() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: registerCustomer,
    onSuccess: () => refreshAfterWrite(qc, { queryKey: customerKeys.all }),
  });
}
