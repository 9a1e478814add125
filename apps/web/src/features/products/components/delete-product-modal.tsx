import { Text } from '@mantine/core';
import { ConfirmModal } from '@/components/ui/confirm-modal';
import { errorMessage } from '@/lib/api-client';
import { toast } from '@/lib/notify';
import { useDeleteProduct } from '../api/delete-product';
import type { Product } from '../api/types';

/** Delete Product: asks first; the API refuses an assigned device or one with history and says why. */
export function DeleteProductModal({ product, onClose }: { product: Product | null; onClose: () => void }) {
  const remove = useDeleteProduct();
  const close = () => {
    if (remove.isPending) return;
    remove.reset();
    onClose();
  };
  return (
    <ConfirmModal
      opened={product !== null}
      onClose={close}
      title="Delete Product"
      message={
        <Text size="sm">
          Are you sure you want to delete product{' '}
          <Text span fw={600}>
            {product?.serial_number}
          </Text>
          {product?.product_name ? ` (${product.product_name})` : ''}? This action cannot be undone.
        </Text>
      }
      confirmLabel="Delete Product"
      loading={remove.isPending}
      error={remove.isError ? errorMessage(remove.error, 'Failed to delete product') : null}
      errorTitle="Failed to delete product"
      onConfirm={() => {
        if (!product) return;
        remove.mutate(product.serial_number, {
          onSuccess: () => {
            toast.success(`Product ${product.serial_number} deleted successfully`);
            remove.reset();
            onClose();
          },
        });
      }}
    />
  );
}
