import { Select } from '@mantine/core';
import { NOT_PLACED, useLocationOptions } from '@/features/stock/api/get-stock-locations';
import type { ProductListQuery } from '../api/types';

export const ALL_LOCATIONS = 'all';

/** The filter's value as GET /products reads it: a place's id, 'none' for the devices in none, nothing for all. */
export function toLocationQuery(value: string): Pick<ProductListQuery, 'location_id'> {
  if (value === ALL_LOCATIONS) return {};
  return { location_id: value === NOT_PLACED.value ? NOT_PLACED.value : Number(value) };
}

/** All locations, Not placed, then each stock location by name. */
export function LocationFilter({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const options = useLocationOptions();
  return (
    <Select
      aria-label="Filter by location"
      w={200}
      allowDeselect={false}
      value={value}
      onChange={(v) => onChange(v ?? ALL_LOCATIONS)}
      data={[{ value: ALL_LOCATIONS, label: 'All locations' }, NOT_PLACED, ...options]}
    />
  );
}
