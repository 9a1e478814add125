import { PageHeader } from '@/components/layout/page-header';

/** Route component of Message History; the screen itself is built by the feature's developer. */
export default function MessagesRoute() {
  return <PageHeader title="Message History" />;
}
