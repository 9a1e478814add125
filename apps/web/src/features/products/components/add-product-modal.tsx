import { Button, Group, Modal, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { ErrorAlert } from '@/components/ui/error-alert';
import { useStockLocations } from '@/features/stock/api/get-stock-locations';
import { errorMessage } from '@/lib/api-client';
import { toast } from '@/lib/notify';
import { useAddProduct } from '../api/add-product';
import { EMPTY_PRODUCT, ProductFormFields, productValidation, toItemFields, type ProductFormValues } from './product-form';

export function AddProductModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const form = useForm<ProductFormValues>({ initialValues: EMPTY_PRODUCT, validate: productValidation });
  const add = useAddProduct();
  const places = useStockLocations();
  const locations = places.data?.data.map((l) => l.name) ?? [];

  const close = () => {
    if (add.isPending) return;
    form.reset();
    add.reset();
    onClose();
  };

  const submit = form.onSubmit((values) => {
    add.mutate(
      { serial_number: values.serial_number.trim(), ...toItemFields(values), ...(values.location ? { location: values.location } : {}) },
      {
        onSuccess: (item) => {
          toast.success(`Product ${item?.serial_number ?? values.serial_number.trim()} added successfully`);
          form.reset();
          add.reset();
          onClose();
        },
      },
    );
  });

  return (
    <Modal opened={opened} onClose={close} title="Add New Product" size="lg" centered>
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <ProductFormFields form={form} locations={locations} />
          {add.isError ? <ErrorAlert title="Failed to add product" message={errorMessage(add.error, 'Failed to add product')} /> : null}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close} disabled={add.isPending}>
              Cancel
            </Button>
            <Button type="submit" loading={add.isPending}>
              Add Product
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
