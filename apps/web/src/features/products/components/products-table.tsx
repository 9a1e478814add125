import { ActionIcon, Button, Checkbox, Group, Menu, Text } from '@mantine/core';
import { IconActivity, IconDotsVertical, IconEdit, IconHash, IconTrash, IconTruckDelivery, IconUserPlus } from '@tabler/icons-react';
import { Link } from 'react-router-dom';
import { DataTable, type Column } from '@/components/ui/data-table';
import { DateText } from '@/components/ui/date-text';
import { paths } from '@/config/paths';
import type { Product } from '../api/types';
import { ProductStatusBadge } from './product-status-badge';

export type ProductAction = 'assign' | 'token-count' | 'move' | 'edit' | 'delete';

/** Only a device in stock can be ticked (to move it): one given out is with its customer. */
export const canMove = (p: Product) => !p.is_assigned;

export interface ProductSelection {
  selected: ReadonlySet<string>;
  /** Ticks (true) or unticks (false) these serial numbers. */
  onChange: (serials: string[], checked: boolean) => void;
}

/** The box over the ticks: all the devices in stock on this page, or none of them. */
function SelectPage({ rows, selection }: { rows: Product[] | undefined; selection: ProductSelection }) {
  const movable = (rows ?? []).filter(canMove).map((p) => p.serial_number);
  const ticked = movable.filter((s) => selection.selected.has(s)).length;
  return (
    <Checkbox
      aria-label="Select the devices in stock on this page"
      checked={movable.length > 0 && ticked === movable.length}
      indeterminate={ticked > 0 && ticked < movable.length}
      disabled={movable.length === 0}
      onChange={(e) => selection.onChange(movable, e.currentTarget.checked)}
    />
  );
}

export function ProductsTable({
  rows,
  loading,
  error,
  onRetry,
  emptyText,
  emptyHint,
  onAction,
  selection,
}: {
  rows: Product[] | undefined;
  loading: boolean;
  error: string | null;
  onRetry: () => void;
  emptyText: string;
  emptyHint?: string;
  onAction: (action: ProductAction, product: Product) => void;
  selection: ProductSelection;
}) {
  const columns: Column<Product>[] = [
    {
      key: 'select',
      header: <SelectPage rows={rows} selection={selection} />,
      width: 40,
      render: (p) => (
        <Checkbox
          aria-label={`Select ${p.serial_number}`}
          title={canMove(p) ? undefined : 'With a customer: not moved between stock locations'}
          disabled={!canMove(p)}
          checked={canMove(p) && selection.selected.has(p.serial_number)}
          onChange={(e) => selection.onChange([p.serial_number], e.currentTarget.checked)}
        />
      ),
    },
    {
      key: 'serial',
      header: 'Serial Number',
      render: (p) => (
        <Text size="sm" fw={600} ff="monospace" style={{ whiteSpace: 'nowrap' }}>
          {p.serial_number}
        </Text>
      ),
    },
    { key: 'name', header: 'Product Name', render: (p) => p.product_name },
    { key: 'oem', header: 'OEM', render: (p) => p.product_oem || p.manufacturer || '—' },
    { key: 'status', header: 'Status', render: (p) => <ProductStatusBadge status={p.status} /> },
    {
      key: 'customer',
      header: 'Customer',
      render: (p) =>
        p.customer_name ? (
          p.customer_id ? (
            <Text component={Link} to={paths.app.customerPaymentDetails.getHref(p.customer_id)} size="sm" c="var(--mantine-primary-color-filled)">
              {p.customer_name}
            </Text>
          ) : (
            p.customer_name
          )
        ) : (
          <Text size="sm" c="dimmed">
            Unassigned
          </Text>
        ),
    },
    {
      key: 'location',
      header: 'Location',
      render: (p) =>
        p.location_name ?? (
          <Text span size="sm" c="dimmed">
            —
          </Text>
        ),
    },
    { key: 'assigned', header: 'Assigned Date', render: (p) => <DateText value={p.assigned_at} /> },
    {
      key: 'actions',
      header: 'Actions',
      align: 'right',
      render: (p) => (
        <Group gap={4} justify="flex-end" wrap="nowrap">
          <Button
            component={Link}
            to={paths.app.deviceActivity.getHref(p.serial_number)}
            size="xs"
            variant="light"
            leftSection={<IconActivity size={14} />}
          >
            View Activity
          </Button>
          <Menu position="bottom-end" withinPortal shadow="md">
            <Menu.Target>
              <ActionIcon variant="subtle" color="gray" aria-label={`More actions for ${p.serial_number}`}>
                <IconDotsVertical size={16} />
              </ActionIcon>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Item leftSection={<IconUserPlus size={14} />} onClick={() => onAction('assign', p)}>
                Assign Product
              </Menu.Item>
              <Menu.Item leftSection={<IconHash size={14} />} onClick={() => onAction('token-count', p)}>
                Update Token Count
              </Menu.Item>
              {canMove(p) ? (
                <Menu.Item leftSection={<IconTruckDelivery size={14} />} onClick={() => onAction('move', p)}>
                  Move to Location
                </Menu.Item>
              ) : null}
              <Menu.Item leftSection={<IconEdit size={14} />} onClick={() => onAction('edit', p)}>
                Edit Product
              </Menu.Item>
              <Menu.Divider />
              <Menu.Item color="red" leftSection={<IconTrash size={14} />} onClick={() => onAction('delete', p)}>
                Delete Product
              </Menu.Item>
            </Menu.Dropdown>
          </Menu>
        </Group>
      ),
    },
  ];
  return (
    <DataTable
      caption="Products"
      columns={columns}
      rows={rows}
      rowKey={(p) => p.serial_number}
      loading={loading}
      error={error}
      onRetry={onRetry}
      emptyText={emptyText}
      emptyHint={emptyHint}
      minWidth={1000}
    />
  );
}
