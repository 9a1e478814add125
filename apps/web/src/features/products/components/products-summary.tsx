import { SimpleGrid } from '@mantine/core';
import { IconChartPie, IconLink, IconPackage, IconPackageOff } from '@tabler/icons-react';
import { StatCard } from '@/components/ui/stat-card';
import { formatRate, useProductsSummary } from '../api/get-products-summary';

/** Total Products, Assigned, Unassigned, Assignment Rate (percent, one decimal). */
export function ProductsSummary() {
  const { data, isPending } = useProductsSummary();
  const n = (v: number | undefined) => (v ?? 0).toLocaleString();
  return (
    <SimpleGrid cols={{ base: 2, md: 4 }} spacing="md" mb="lg">
      <StatCard label="Total Products" value={n(data?.total)} loading={isPending} icon={<IconPackage size={18} />} />
      <StatCard label="Assigned" value={n(data?.assigned)} loading={isPending} color="green" icon={<IconLink size={18} />} />
      <StatCard label="Unassigned" value={n(data?.unassigned)} loading={isPending} color="blue" icon={<IconPackageOff size={18} />} />
      <StatCard
        label="Assignment Rate"
        value={formatRate(data?.assignmentRate ?? 0)}
        loading={isPending}
        color="grape"
        icon={<IconChartPie size={18} />}
      />
    </SimpleGrid>
  );
}
