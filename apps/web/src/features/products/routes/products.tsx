import { PageHeader } from '@/components/layout/page-header';

/** Route component of Product Management; the screen itself is built by the feature's developer. */
export default function ProductsRoute() {
  return <PageHeader title="Product Management" />;
}
