import { ActionIcon, Group, ScrollArea, Stack, Table, Text, Tooltip } from '@mantine/core';
import { IconChecklist, IconChevronDown, IconChevronRight } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { TableState } from '@/components/ui/data-table';
import { EditDeleteActions } from '@/components/ui/row-actions';
import { NOT_PLACED } from '../api/get-stock-locations';
import type { StockCounts, StockLocation, StockLocationListReply, StockProductCounts } from '../api/types';

/** The count columns, in the order they read: what is there by status, then in all, then what went out from there. */
const COUNTS: { key: keyof StockCounts; header: string }[] = [
  { key: 'available', header: 'Available' },
  { key: 'maintenance', header: 'Maintenance' },
  { key: 'retired', header: 'Retired' },
  { key: 'in_stock', header: 'In Stock' },
  { key: 'given_out', header: 'Given Out' },
];

function Count({ n, strong = false }: { n: number; strong?: boolean }) {
  return (
    <Text span size="sm" fw={strong ? 600 : undefined} c={n === 0 ? 'dimmed' : undefined} style={{ fontVariantNumeric: 'tabular-nums' }}>
      {n.toLocaleString()}
    </Text>
  );
}

function CountCells({ counts }: { counts: StockCounts }) {
  return COUNTS.map((c) => (
    <Table.Td key={c.key} ta="right">
      <Count n={counts[c.key]} strong={c.key === 'in_stock'} />
    </Table.Td>
  ));
}

/**
 * One place's devices by product, under its row and in its columns: what the
 * row opens on. Each line is named "{product} at {place}".
 */
function ProductRows({ name, products, span, withActions }: { name: string; products: StockProductCounts[]; span: number; withActions: boolean }) {
  if (products.length === 0) {
    return (
      <Table.Tr bg="var(--kidogo-section-bg)">
        <Table.Td />
        <Table.Td colSpan={span - 1}>
          <Text size="sm" c="dimmed">
            No devices here yet. Move devices here from Products.
          </Text>
        </Table.Td>
      </Table.Tr>
    );
  }
  return products.map((p) => (
    <Table.Tr key={p.product_name} bg="var(--kidogo-section-bg)" aria-label={`${p.product_name} at ${name}`}>
      <Table.Td />
      <Table.Td>
        <Text size="sm" pl="sm" style={{ borderLeft: '2px solid var(--mantine-color-default-border)' }}>
          {p.product_name}
        </Text>
      </Table.Td>
      <CountCells counts={p} />
      {withActions ? <Table.Td /> : null}
    </Table.Tr>
  ));
}

interface PlaceRowProps {
  name: string;
  description: ReactNode;
  counts: StockCounts;
  products: StockProductCounts[];
  actions: ReactNode;
  /** Columns in all, for the breakdown's cell. */
  span: number;
}

/** A place's row and, once opened, its products under it. */
function PlaceRows({ name, description, counts, products, actions, span }: PlaceRowProps) {
  const [open, setOpen] = useState(false);
  const toggle = () => setOpen((o) => !o);
  return (
    <>
      <Table.Tr onClick={toggle} style={{ cursor: 'pointer' }}>
        <Table.Td w={40}>
          <ActionIcon
            variant="subtle"
            color="gray"
            aria-label={`${open ? 'Hide' : 'Show'} products at ${name}`}
            aria-expanded={open}
            onClick={(e) => {
              e.stopPropagation();
              toggle();
            }}
          >
            {open ? <IconChevronDown size={16} /> : <IconChevronRight size={16} />}
          </ActionIcon>
        </Table.Td>
        <Table.Td>
          <Stack gap={0} maw={360}>
            <Text size="sm" fw={600}>
              {name}
            </Text>
            {description ? (
              <Text size="xs" c="dimmed" lineClamp={2} style={{ overflowWrap: 'anywhere' }}>
                {description}
              </Text>
            ) : null}
          </Stack>
        </Table.Td>
        <CountCells counts={counts} />
        {actions === undefined ? null : (
          // The row opens on a click: its buttons do their own thing only.
          <Table.Td ta="right" onClick={(e) => e.stopPropagation()}>
            {actions}
          </Table.Td>
        )}
      </Table.Tr>
      {open ? <ProductRows name={name} products={products} span={span} withActions={actions !== undefined} /> : null}
    </>
  );
}

/**
 * The stock locations with their devices by status; each row opens on its
 * devices by product. The devices in no place come last ("Not placed"), when
 * there are any. Stock Take is there for everyone; Edit and Delete for owners
 * and admins.
 */
export function StockLocationsTable({
  data,
  loading,
  error,
  onRetry,
  onEdit,
  onDelete,
  onStockTake,
  empty,
}: {
  data: StockLocationListReply | undefined;
  loading: boolean;
  error: string | null;
  onRetry: () => void;
  /** Absent for a user who cannot change places: no actions column. */
  onEdit?: (location: StockLocation) => void;
  onDelete?: (location: StockLocation) => void;
  /** Compare a count of the place with what Kidogo has there. */
  onStockTake?: (location: StockLocation) => void;
  /** What to show when the organization has no place yet. */
  empty: ReactNode;
}) {
  const locations = data?.data ?? [];
  const unplaced = data?.unplaced;
  const manages = onEdit !== undefined && onDelete !== undefined;
  const withActions = manages || onStockTake !== undefined;
  const span = 2 + COUNTS.length + (withActions ? 1 : 0);
  const actionsOf = (l: StockLocation) =>
    withActions ? (
      <Group gap={4} justify="flex-end" wrap="nowrap">
        {onStockTake ? (
          <Tooltip label="Stock Take">
            <ActionIcon variant="subtle" aria-label={`Stock take at ${l.name}`} onClick={() => onStockTake(l)}>
              <IconChecklist size={16} />
            </ActionIcon>
          </Tooltip>
        ) : null}
        {manages ? <EditDeleteActions name={l.name} onEdit={() => onEdit(l)} onDelete={() => onDelete(l)} /> : null}
      </Group>
    ) : undefined;
  if (loading || error) return <TableState loading={loading} error={error} onRetry={onRetry} isEmpty={false} />;
  if (locations.length === 0) return <>{empty}</>;
  const showUnplaced = unplaced !== undefined && unplaced.counts.in_stock + unplaced.counts.given_out > 0;
  return (
    <ScrollArea type="auto">
      <Table miw={withActions ? 880 : 780} aria-label="Stock Locations" highlightOnHover>
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={40} aria-label="Products" />
            <Table.Th>Name</Table.Th>
            {COUNTS.map((c) => (
              <Table.Th key={c.key} ta="right">
                {c.header}
              </Table.Th>
            ))}
            {withActions ? <Table.Th ta="right">Actions</Table.Th> : null}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {locations.map((l) => (
            <PlaceRows
              key={l.location_id}
              name={l.name}
              description={l.description}
              counts={l.counts}
              products={l.products}
              span={span}
              actions={actionsOf(l)}
            />
          ))}
          {showUnplaced ? (
            <PlaceRows
              name={NOT_PLACED.label}
              description="Devices in no stock location"
              counts={unplaced.counts}
              products={unplaced.products}
              span={span}
              actions={withActions ? null : undefined}
            />
          ) : null}
        </Table.Tbody>
      </Table>
    </ScrollArea>
  );
}
