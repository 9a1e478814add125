import { PageHeader } from '@/components/layout/page-header';

/** Route component of Customers; the screen itself is built by the feature's developer. */
export default function CustomersRoute() {
  return <PageHeader title="Customers" />;
}
