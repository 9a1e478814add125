import { Modal } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { toast } from '@/lib/notify';
import { useUpdateCustomer } from '../api/update-customer';
import type { Customer } from '../api/types';
import { CustomerForm, fromCustomer, toCustomerInput } from './customer-form';

export const UPDATE_FAILED = 'Failed to update customer';

/** Edits every profile field and saves with PUT /customers/{id}; the list reloads after. */
export function EditCustomerModal({ customer, onClose }: { customer: Customer | null; onClose: () => void }) {
  const update = useUpdateCustomer();
  const phone = useMediaQuery('(max-width: 48em)');

  return (
    <Modal
      opened={customer !== null}
      onClose={onClose}
      title={customer ? `Edit ${customer.customer_name}` : 'Edit Customer'}
      size="xl"
      fullScreen={phone}
      closeOnClickOutside={false}
    >
      {customer ? (
        <CustomerForm
          key={customer.customer_id}
          initialValues={fromCustomer(customer)}
          submitLabel="Save Changes"
          failureTitle={UPDATE_FAILED}
          onCancel={onClose}
          onSubmit={async (values) => {
            // organization_id is not the form's to change: the token decides it.
            const { organization_id: _ignored, ...changes } = toCustomerInput(values, null);
            await update.mutateAsync({ id: customer.customer_id, changes });
            toast.success('Customer updated successfully');
            onClose();
          }}
        />
      ) : null}
    </Modal>
  );
}
