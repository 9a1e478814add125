import { Text } from '@mantine/core';
import { DeleteModal } from '@/components/ui/delete-modal';
import { useDeleteCustomer } from '../api/delete-customer';
import type { Customer } from '../api/types';

/**
 * Delete Customer: for a registration made by mistake or twice. Asks first;
 * the API refuses a customer with devices, payments or tokens and says why,
 * which is shown here.
 */
export function DeleteCustomerModal({ customer, onClose }: { customer: Customer | null; onClose: () => void }) {
  return (
    <DeleteModal
      target={customer}
      onClose={onClose}
      title="Delete Customer"
      failure="Failed to delete customer"
      mutation={useDeleteCustomer()}
      variables={(c) => c.customer_id}
      success={(c) => `Customer ${c.customer_name} deleted successfully`}
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
    />
  );
}
