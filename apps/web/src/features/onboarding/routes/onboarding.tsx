import { PageHeader } from '@/components/layout/page-header';

/** Route component of Customer Onboarding; the screen itself is built by the feature's developer. */
export default function OnboardingRoute() {
  return <PageHeader title="Customer Onboarding" />;
}
