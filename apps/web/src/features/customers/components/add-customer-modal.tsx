import { Modal } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { toast } from '@/lib/notify';
import { useSession } from '@/lib/session';
import { useRegisterCustomer } from '../api/register-customer';
import { CustomerForm, toCustomerInput } from './customer-form';

export const ADD_FAILED = 'Failed to add customer';

export function AddCustomerModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { organizationId } = useSession();
  const register = useRegisterCustomer();
  const phone = useMediaQuery('(max-width: 48em)');

  return (
    <Modal opened={opened} onClose={onClose} title="Add Customer" size="xl" fullScreen={phone} closeOnClickOutside={false}>
      {opened ? (
        <CustomerForm
          submitLabel="Add Customer"
          failureTitle={ADD_FAILED}
          onCancel={onClose}
          onSubmit={async (values) => {
            const customer = await register.mutateAsync(toCustomerInput(values, organizationId));
            toast.success(`Customer ${customer?.customer_name ?? values.customer_name.trim()} added successfully`);
            onClose();
          }}
        />
      ) : null}
    </Modal>
  );
}
