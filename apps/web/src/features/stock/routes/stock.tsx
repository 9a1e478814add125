import { Button, Card, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconBuildingWarehouse, IconPlus, IconRefresh } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { PageHeader } from '@/components/layout/page-header';
import { errorMessage } from '@/lib/api-client';
import { managesOrganization, useSession } from '@/lib/session';
import { useStockLocations } from '../api/get-stock-locations';
import { stockKeys } from '../api/keys';
import type { StockLocation } from '../api/types';
import { DeleteLocationModal } from '../components/delete-location-modal';
import { LocationFormModal } from '../components/location-form-modal';
import { StockLocationsTable } from '../components/stock-locations-table';
import { StockMovementsCard } from '../components/stock-movements-card';
import { StockTakeModal } from '../components/stock-take-modal';

export const LOAD_FAILED = 'Failed to load the stock locations';

/** No place yet: what places are for, and (for owners and admins) the button to add the first. */
function NoLocations({ onAdd }: { onAdd: (() => void) | null }) {
  return (
    <Stack align="center" gap="xs" py="xl" maw={560} mx="auto" ta="center">
      <ThemeIcon variant="light" size={48} radius="xl" aria-hidden>
        <IconBuildingWarehouse size={26} />
      </ThemeIcon>
      <Title order={4}>No stock locations yet</Title>
      <Text size="sm" c="dimmed">
        Stock locations are the warehouses, shops and field agents that keep your devices before they are given to
        customers. Add them, then move devices there from Products to see what each place holds and where every device
        went.
      </Text>
      {onAdd ? (
        <Button leftSection={<IconPlus size={16} />} onClick={onAdd} mt="xs">
          Add Location
        </Button>
      ) : (
        <Text size="sm" c="dimmed">
          An owner or admin of your organization adds them.
        </Text>
      )}
    </Stack>
  );
}

/** Stock Locations: where the devices not given out are kept, what each place holds, and the moves between them. */
export default function StockRoute() {
  const qc = useQueryClient();
  const { user } = useSession();
  const manages = managesOrganization(user);
  const locations = useStockLocations();
  const [form, setForm] = useState<{ location: StockLocation | null } | null>(null);
  const [deleting, setDeleting] = useState<StockLocation | null>(null);
  const [counting, setCounting] = useState<StockLocation | null>(null);
  const add = manages ? () => setForm({ location: null }) : null;

  return (
    <>
      <PageHeader
        title="Stock Locations"
        subtitle="Warehouses, shops and field agents: the devices each one holds, and the moves between them."
        actions={
          <>
            <Button
              variant="default"
              leftSection={<IconRefresh size={16} />}
              onClick={() => void qc.invalidateQueries({ queryKey: stockKeys.all })}
              loading={locations.isFetching && !locations.isPending}
            >
              Refresh
            </Button>
            {add ? (
              <Button leftSection={<IconPlus size={16} />} onClick={add}>
                Add Location
              </Button>
            ) : null}
          </>
        }
      />
      <Card padding="md" radius="md">
        <StockLocationsTable
          data={locations.data}
          loading={locations.isPending}
          error={locations.isError ? errorMessage(locations.error, LOAD_FAILED) : null}
          onRetry={() => void locations.refetch()}
          onEdit={manages ? (location) => setForm({ location }) : undefined}
          onDelete={manages ? setDeleting : undefined}
          onStockTake={setCounting}
          empty={<NoLocations onAdd={add} />}
        />
        {locations.data?.data.length ? (
          <Text size="xs" c="dimmed" mt="sm">
            In Stock counts the devices kept at a place (available, in maintenance or retired); Given Out, the devices given to
            customers from there. Open a row to see them by product; Stock Take compares a count of a place with what Kidogo has there.
          </Text>
        ) : null}
      </Card>
      <StockMovementsCard />
      <LocationFormModal opened={form !== null} location={form?.location ?? null} onClose={() => setForm(null)} />
      <DeleteLocationModal location={deleting} onClose={() => setDeleting(null)} />
      <StockTakeModal location={counting} onClose={() => setCounting(null)} />
    </>
  );
}
