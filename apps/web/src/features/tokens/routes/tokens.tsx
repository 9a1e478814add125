import { PageHeader } from '@/components/layout/page-header';

/** Route component of Tokens; the screen itself is built by the feature's developer. */
export default function TokensRoute() {
  return <PageHeader title="Tokens" />;
}
