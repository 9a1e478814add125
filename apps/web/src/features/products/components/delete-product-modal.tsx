import { Text } from '@mantine/core';
import { DeleteModal } from '@/components/ui/delete-modal';
import { useDeleteProduct } from '../api/delete-product';
import type { Product } from '../api/types';

/** Delete Product: asks first; the API refuses an assigned device or one with history and says why. */
export function DeleteProductModal({ product, onClose }: { product: Product | null; onClose: () => void }) {
  return (
    <DeleteModal
      target={product}
      onClose={onClose}
      title="Delete Product"
      failure="Failed to delete product"
      mutation={useDeleteProduct()}
      variables={(p) => p.serial_number}
      success={(p) => `Product ${p.serial_number} deleted successfully`}
      message={
        <Text size="sm">
          Are you sure you want to delete product{' '}
          <Text span fw={600}>
            {product?.serial_number}
          </Text>
          {product?.product_name ? ` (${product.product_name})` : ''}? This action cannot be undone.
        </Text>
      }
    />
  );
}
