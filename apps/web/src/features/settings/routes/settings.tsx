import { PageHeader } from '@/components/layout/page-header';

/** Route component of Settings; the screen itself is built by the feature's developer. */
export default function SettingsRoute() {
  return <PageHeader title="Settings" />;
}
