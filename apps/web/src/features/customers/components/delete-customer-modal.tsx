import { Text } from '@mantine/core';
import { ConfirmModal } from '@/components/ui/confirm-modal';
import { errorMessage } from '@/lib/api-client';
import { toast } from '@/lib/notify';
import { useDeleteCustomer } from '../api/delete-customer';
import type { Customer } from '../api/types';

/**
 * Delete Customer: for a registration made by mistake or twice. Asks first;
 * the API refuses a customer with devices, payments or tokens and says why,
 * which is shown here.
 */
export function DeleteCustomerModal({ customer, onClose }: { customer: Customer | null; onClose: () => void }) {
  const remove = useDeleteCustomer();
  const close = () => {
    if (remove.isPending) return;
    remove.reset();
    onClose();
  };
  return (
    <ConfirmModal
      opened={customer !== null}
      onClose={close}
      title="Delete Customer"
      message={
        <Text size="sm">
          Are you sure you want to delete customer{' '}
          <Text span fw={600}>
            {customer?.customer_name}
          </Text>
          {customer?.id_number ? ` (ID ${customer.id_number})` : ''}? This action cannot be undone. A customer with devices,
          payments or tokens cannot be deleted.
        </Text>
      }
      confirmLabel="Delete Customer"
      loading={remove.isPending}
      error={remove.isError ? errorMessage(remove.error, 'Failed to delete customer') : null}
      errorTitle="Failed to delete customer"
      onConfirm={() => {
        if (!customer) return;
        remove.mutate(customer.customer_id, {
          onSuccess: () => {
            toast.success(`Customer ${customer.customer_name} deleted successfully`);
            remove.reset();
            onClose();
          },
        });
      }}
    />
  );
}
