import { Button, Card, Group, Menu, SegmentedControl, Select, TextInput } from '@mantine/core';
import { useDebouncedValue, useDisclosure } from '@mantine/hooks';
import { IconChevronDown, IconDownload, IconFileExport, IconFileImport, IconUpload, IconPlus, IconRefresh, IconSearch, IconUsers } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { PageHeader } from '@/components/layout/page-header';
import { PaginationControl } from '@/components/ui/pagination-control';
import { MoveDevicesModal } from '@/features/stock/components/move-devices-modal';
import { errorMessage } from '@/lib/api-client';
import { managesOrganization, useSession } from '@/lib/session';
import { useExportAccounts, useExportProducts } from '../api/export-products';
import { DEFAULT_PRODUCT_PAGE_SIZE, PRODUCT_PAGE_SIZES, useProducts } from '../api/get-products';
import { productKeys } from '../api/keys';
import type { Product, ProductStatusFilter } from '../api/types';
import { AddProductModal } from '../components/add-product-modal';
import { ImportAccountsModal } from '../components/import-accounts-modal';
import { ImportDevicesModal } from '../components/import-devices-modal';
import { AssignProductModal } from '../components/assign-product-modal';
import { DeleteProductModal } from '../components/delete-product-modal';
import { EditProductModal } from '../components/edit-product-modal';
import { ProductsSummary } from '../components/products-summary';
import { ALL_LOCATIONS, LocationFilter, toLocationQuery } from '../components/location-filter';
import { MoveSelectedBar, useProductSelection } from '../components/move-selected-bar';
import { ProductsTable, type ProductAction } from '../components/products-table';
import { UpdateTokenCountModal } from '../components/update-token-count-modal';

const FILTERS: { value: ProductStatusFilter; label: string }[] = [
  { value: 'all', label: 'All Products' },
  { value: 'assigned', label: 'Assigned' },
  { value: 'unassigned', label: 'Unassigned' },
];

/** Product Management: the organization's devices, their assignment and their token counts. */
export default function ProductsRoute() {
  const qc = useQueryClient();
  const [search, setSearch] = useState('');
  const { user } = useSession();
  const [importing, setImporting] = useState(false);
  // Bringing accounts over from another system is for owners and admins (the API refuses staff).
  const canImportAccounts = managesOrganization(user);
  const [importingAccounts, setImportingAccounts] = useState(false);
  const [debouncedSearch] = useDebouncedValue(search.trim(), 500);
  const [status, setStatus] = useState<ProductStatusFilter>('all');
  const [location, setLocation] = useState(ALL_LOCATIONS);
  const [page, setPage] = useState(1);
  const [limit, setLimit] = useState<number>(DEFAULT_PRODUCT_PAGE_SIZE);
  const [addOpened, addModal] = useDisclosure(false);
  const [dialog, setDialog] = useState<{ action: ProductAction; product: Product } | null>(null);
  // The ticked devices stay ticked across pages and searches: a truck's load is gathered serial by serial.
  const selection = useProductSelection();
  const [movingSelected, setMovingSelected] = useState(false);

  // A new search, filter or page size starts again at page 1.
  const [lastKey, setLastKey] = useState(`${debouncedSearch}|${status}|${location}|${limit}`);
  const key = `${debouncedSearch}|${status}|${location}|${limit}`;
  if (key !== lastKey) {
    setLastKey(key);
    setPage(1);
  }

  const exporter = useExportProducts();
  const accountsExporter = useExportAccounts();
  const products = useProducts({ page, limit, search: debouncedSearch || undefined, status, ...toLocationQuery(location) });
  const rows = products.data?.data;
  const total = products.data?.total ?? 0;

  const dialogFor = (action: ProductAction) => (dialog?.action === action ? dialog.product : null);
  const closeDialog = () => setDialog(null);
  const filtered = debouncedSearch !== '' || status !== 'all' || location !== ALL_LOCATIONS;
  const movingOne = dialogFor('move');

  return (
    <>
      <PageHeader
        title="Product Management"
        subtitle="Devices of your organization: who has them, and their token history."
        actions={
          <>
            <Button
              variant="default"
              leftSection={<IconRefresh size={16} />}
              onClick={() => void qc.invalidateQueries({ queryKey: productKeys.all })}
              loading={products.isFetching && !products.isPending}
            >
              Refresh
            </Button>
            <Button variant="default" leftSection={<IconUpload size={16} />} onClick={() => setImporting(true)}>
              Import CSV
            </Button>
            {canImportAccounts ? (
              <Menu position="bottom-end" withinPortal>
                <Menu.Target>
                  <Button
                    variant="default"
                    leftSection={<IconUsers size={16} />}
                    rightSection={<IconChevronDown size={14} />}
                    loading={accountsExporter.isPending}
                  >
                    Accounts
                  </Button>
                </Menu.Target>
                <Menu.Dropdown>
                  <Menu.Item leftSection={<IconFileImport size={16} />} onClick={() => setImportingAccounts(true)}>
                    Import Accounts
                  </Menu.Item>
                  <Menu.Item leftSection={<IconFileExport size={16} />} onClick={() => accountsExporter.mutate()}>
                    Export Accounts
                  </Menu.Item>
                </Menu.Dropdown>
              </Menu>
            ) : null}
            <Button
              variant="default"
              leftSection={<IconDownload size={16} />}
              onClick={() => exporter.mutate({ search: debouncedSearch || undefined, status, ...toLocationQuery(location) })}
              loading={exporter.isPending}
              title={filtered ? 'The devices of the search and filters, as CSV' : 'Every device, as CSV'}
            >
              Export CSV
            </Button>
            <Button leftSection={<IconPlus size={16} />} onClick={addModal.open}>
              Add Product
            </Button>
          </>
        }
      />
      <ProductsSummary />
      <Card padding="md" radius="md">
        <Group justify="space-between" gap="sm" mb="md" wrap="wrap">
          <TextInput
            aria-label="Search products"
            placeholder="Search serial, product, manufacturer, OEM..."
            leftSection={<IconSearch size={16} />}
            value={search}
            onChange={(e) => setSearch(e.currentTarget.value)}
            style={{ flex: '1 1 280px', maxWidth: 460 }}
          />
          <Group gap="sm" wrap="wrap">
            <SegmentedControl
              aria-label="Filter products"
              value={status}
              onChange={(v) => setStatus(v as ProductStatusFilter)}
              data={FILTERS}
            />
            <LocationFilter value={location} onChange={setLocation} />
            <Select
              aria-label="Page size"
              w={120}
              allowDeselect={false}
              value={String(limit)}
              onChange={(v) => v && setLimit(Number(v))}
              data={PRODUCT_PAGE_SIZES.map((n) => ({ value: String(n), label: `${n} / page` }))}
            />
          </Group>
        </Group>
        <MoveSelectedBar selection={selection} onMove={() => setMovingSelected(true)} />
        <ProductsTable
          rows={rows}
          loading={products.isPending}
          error={products.isError ? errorMessage(products.error, 'Failed to fetch products') : null}
          onRetry={() => void products.refetch()}
          emptyText={filtered ? 'No products match your search' : 'No products found'}
          emptyHint={filtered ? 'Try adjusting your search or filter' : 'Add a product to get started'}
          onAction={(action, product) => setDialog({ action, product })}
          selection={selection}
        />
        <PaginationControl page={page} total={total} pageSize={limit} onPageChange={setPage} itemLabel="products" />
      </Card>

      <AddProductModal opened={addOpened} onClose={addModal.close} />
      <ImportDevicesModal opened={importing} onClose={() => setImporting(false)} />
      {canImportAccounts ? <ImportAccountsModal opened={importingAccounts} onClose={() => setImportingAccounts(false)} /> : null}
      <AssignProductModal product={dialogFor('assign')} onClose={closeDialog} />
      <UpdateTokenCountModal product={dialogFor('token-count')} onClose={closeDialog} />
      <EditProductModal product={dialogFor('edit')} onClose={closeDialog} />
      <DeleteProductModal product={dialogFor('delete')} onClose={closeDialog} />
      <MoveDevicesModal
        serials={movingSelected ? [...selection.selected] : movingOne ? [movingOne.serial_number] : null}
        onClose={() => {
          setMovingSelected(false);
          closeDialog();
        }}
        onMoved={movingSelected ? selection.clear : undefined}
      />
    </>
  );
}
