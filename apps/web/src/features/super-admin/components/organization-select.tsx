import { Select, type SelectProps } from '@mantine/core';
import { organizationLabel, useOrganizationOptions } from '../api/get-organizations';

/** Picks one of the platform's organizations. */
export function OrganizationSelect(props: Omit<SelectProps, 'data'>) {
  const orgs = useOrganizationOptions();
  return (
    <Select
      searchable
      nothingFoundMessage="No organizations found"
      placeholder={orgs.isPending ? 'Loading organizations...' : 'Choose an organization'}
      data={(orgs.data ?? []).map((o) => ({ value: o.organization_id, label: organizationLabel(o) }))}
      {...props}
    />
  );
}
