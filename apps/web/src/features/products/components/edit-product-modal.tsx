import { Button, Group, Modal, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { ErrorAlert } from '@/components/ui/error-alert';
import { errorMessage } from '@/lib/api-client';
import { toast } from '@/lib/notify';
import { useUpdateProduct } from '../api/update-product';
import type { ItemStatus, Product } from '../api/types';
import { ProductFormFields, productValidation, toItemFields, type ProductFormValues } from './product-form';

const valuesOf = (p: Product): ProductFormValues => ({
  serial_number: p.serial_number,
  product_name: p.product_name ?? '',
  product_type: p.product_type ?? '',
  manufacturer: p.manufacturer ?? '',
  model: p.model ?? '',
  description: p.description ?? '',
  price: Number(p.price) || 0,
  status: p.status,
  product_oem: p.product_oem ?? '',
  location: '',
});

/** 'assigned' comes only from assigning; an assigned device cannot be made available or retired here. */
const statusesFor = (p: Product | null): ItemStatus[] =>
  p?.is_assigned ? ['assigned', 'maintenance'] : ['available', 'maintenance', 'retired'];

/** Edit Product: saves through PUT /items/{serial}, sending only what changed. */
export function EditProductModal({ product, onClose }: { product: Product | null; onClose: () => void }) {
  const update = useUpdateProduct();
  const close = () => {
    if (update.isPending) return;
    update.reset();
    onClose();
  };
  return (
    <Modal opened={product !== null} onClose={close} title={`Edit Product ${product?.serial_number ?? ''}`} size="lg" centered>
      {product ? <EditProductForm key={product.serial_number} product={product} update={update} onCancel={close} onDone={onClose} /> : null}
    </Modal>
  );
}

function EditProductForm({
  product,
  update,
  onCancel,
  onDone,
}: {
  product: Product;
  update: ReturnType<typeof useUpdateProduct>;
  onCancel: () => void;
  onDone: () => void;
}) {
  const form = useForm<ProductFormValues>({ initialValues: valuesOf(product), validate: productValidation });

  const submit = form.onSubmit((values) => {
    const next = toItemFields(values);
    const before = toItemFields(valuesOf(product));
    const changes = Object.fromEntries(Object.entries(next).filter(([k, v]) => before[k as keyof typeof before] !== v));
    if (Object.keys(changes).length === 0) {
      onCancel();
      return;
    }
    update.mutate(
      { serialNumber: product.serial_number, changes },
      {
        onSuccess: () => {
          toast.success(`Product ${product.serial_number} updated successfully`);
          update.reset();
          onDone();
        },
      },
    );
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <ProductFormFields form={form} editing statuses={statusesFor(product)} />
        {update.isError ? (
          <ErrorAlert title="Failed to update product" message={errorMessage(update.error, 'Failed to update product')} />
        ) : null}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel} disabled={update.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={update.isPending}>
            Save Changes
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
