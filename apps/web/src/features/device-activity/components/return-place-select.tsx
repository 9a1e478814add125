import { Select } from '@mantine/core';
import { NOT_PLACED, useLocationOptions } from '@/features/stock/api/get-stock-locations';

/** The place choice's value for "where it was given from": location_id left out. */
export const STAY = 'stay';

/** The body's location_id for a place choice: left out to stay, null for none, else the place's id. */
export const locationOf = (place: string): { location_id?: number | null } =>
  place === STAY ? {} : { location_id: place === NOT_PLACED.value ? null : Number(place) };

/**
 * The stock location a device taken back from its customer goes to (Repossess,
 * the old device of a swap): where it was given from unless another is chosen.
 */
export function ReturnPlaceSelect({
  locationName,
  value,
  onChange,
  description,
  disabled,
}: {
  /** The stock location it was given from, or null for none. */
  locationName: string | null;
  value: string;
  onChange: (value: string) => void;
  description: string;
  disabled: boolean;
}) {
  const places = useLocationOptions();
  return (
    <Select
      label="Stock location"
      description={description}
      value={value}
      onChange={(v) => onChange(v ?? STAY)}
      allowDeselect={false}
      data={[
        { value: STAY, label: locationName ? `${locationName} (given from there)` : 'Not placed (as it was given)' },
        ...places.filter((p) => p.label !== locationName),
        ...(locationName ? [NOT_PLACED] : []),
      ]}
      disabled={disabled}
    />
  );
}
