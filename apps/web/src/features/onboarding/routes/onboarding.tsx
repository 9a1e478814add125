import { PageHeader } from '@/components/layout/page-header';
import { OnboardingForm } from '../components/onboarding-form';

/** Route component of Customer Onboarding. */
export default function OnboardingRoute() {
  return (
    <>
      <PageHeader
        title="Customer Onboarding"
        subtitle="Give a customer a device and a payment plan in one step."
      />
      <OnboardingForm />
    </>
  );
}
