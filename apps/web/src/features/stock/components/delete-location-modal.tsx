import { Text } from '@mantine/core';
import { DeleteModal } from '@/components/ui/delete-modal';
import { useDeleteStockLocation } from '../api/save-stock-location';
import type { StockLocation } from '../api/types';

/** Delete Location: asks first; the API refuses a place still holding devices and says why. */
export function DeleteLocationModal({ location, onClose }: { location: StockLocation | null; onClose: () => void }) {
  return (
    <DeleteModal
      target={location}
      onClose={onClose}
      title="Delete Location"
      failure="Failed to delete the stock location"
      mutation={useDeleteStockLocation()}
      variables={(l) => l.location_id}
      success={(l) => `Stock location ${l.name} deleted`}
      message={
        <Text size="sm">
          Are you sure you want to delete the stock location{' '}
          <Text span fw={600}>
            {location?.name}
          </Text>
          ? A location that still holds devices cannot be deleted: move them first. Its past movements keep its name.
        </Text>
      }
    />
  );
}
