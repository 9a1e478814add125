import { NumberInput, Select, SimpleGrid, Textarea, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { ITEM_STATUSES, type ItemStatus } from '../api/types';

export interface ProductFormValues {
  serial_number: string;
  product_name: string;
  product_type: string;
  manufacturer: string;
  model: string;
  description: string;
  price: number | string;
  status: ItemStatus | '';
  product_oem: string;
  /** The stock location it is kept at, by name; '' for none. Set when adding only: a device moves with Move to Location. */
  location: string;
}

export const EMPTY_PRODUCT: ProductFormValues = {
  serial_number: '',
  product_name: '',
  product_type: '',
  manufacturer: '',
  model: '',
  description: '',
  price: 0,
  status: 'available',
  product_oem: '',
  location: '',
};

const STATUS_LABELS: Record<ItemStatus, string> = {
  available: 'Available',
  assigned: 'Assigned',
  maintenance: 'Maintenance',
  retired: 'Retired',
};

/** Spec §5: serial number, product name, price and status are required; price is a number ≥ 0. */
export const productValidation = {
  serial_number: (v: string) => (v.trim() ? null : 'Serial number is required'),
  product_name: (v: string) => (v.trim() ? null : 'Product name is required'),
  price: (v: number | string) => {
    if (v === '' || v === null || v === undefined) return 'Price is required';
    return toPrice(v) < 0 ? 'Price must be 0 or more' : null;
  },
  status: (v: string) => (v ? null : 'Status is required'),
};

/** A price that is not a number becomes 0 (spec §5); two decimals at most. */
export function toPrice(v: number | string): number {
  const n = typeof v === 'number' ? v : Number(String(v).trim());
  return Number.isFinite(n) ? Math.round(n * 100) / 100 : 0;
}

const orNull = (s: string) => (s.trim() ? s.trim() : null);

export function toItemFields(v: ProductFormValues) {
  return {
    product_name: v.product_name.trim(),
    product_type: orNull(v.product_type),
    manufacturer: orNull(v.manufacturer),
    model: orNull(v.model),
    description: orNull(v.description),
    price: toPrice(v.price),
    status: (v.status || 'available') as ItemStatus,
    product_oem: orNull(v.product_oem),
  };
}

/**
 * The fields of a device, shared by Add New Product and Edit Product. The
 * serial number is the device's identity: editable only when adding.
 */
export function ProductFormFields({
  form,
  editing = false,
  statuses = ITEM_STATUSES,
  locations,
}: {
  form: UseFormReturnType<ProductFormValues>;
  editing?: boolean;
  statuses?: readonly ItemStatus[];
  /** The stock locations' names, to choose where a new device is kept; absent, no Location field. */
  locations?: readonly string[];
}) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm" verticalSpacing="sm">
      <TextInput
        label="Serial Number"
        placeholder="e.g. SHS-2024-0001"
        withAsterisk={!editing}
        disabled={editing}
        data-autofocus={!editing || undefined}
        {...form.getInputProps('serial_number')}
      />
      <TextInput
        label="Product Name"
        placeholder="e.g. Solar Home System 50W"
        withAsterisk
        data-autofocus={editing || undefined}
        {...form.getInputProps('product_name')}
      />
      <TextInput label="Product Type" placeholder="e.g. solar_home_system" {...form.getInputProps('product_type')} />
      <TextInput label="Manufacturer" {...form.getInputProps('manufacturer')} />
      <TextInput label="Model" {...form.getInputProps('model')} />
      <TextInput label="Product OEM" placeholder="e.g. SunKing" {...form.getInputProps('product_oem')} />
      <NumberInput
        label="Price"
        withAsterisk
        min={0}
        step={0.01}
        decimalScale={2}
        allowNegative={false}
        thousandSeparator=","
        {...form.getInputProps('price')}
      />
      <Select
        label="Status"
        withAsterisk
        allowDeselect={false}
        data={statuses.map((s) => ({ value: s, label: STATUS_LABELS[s] }))}
        {...form.getInputProps('status')}
      />
      {locations ? (
        <Select
          label="Location"
          placeholder={locations.length ? 'Not placed' : 'No stock locations yet'}
          description="The stock location it is kept at (optional)."
          clearable
          disabled={locations.length === 0}
          data={[...locations]}
          value={form.values.location || null}
          onChange={(v) => form.setFieldValue('location', v ?? '')}
          error={form.errors.location}
        />
      ) : null}
      <Textarea
        label="Description"
        rows={3}
        style={{ gridColumn: '1 / -1' }}
        {...form.getInputProps('description')}
      />
    </SimpleGrid>
  );
}
