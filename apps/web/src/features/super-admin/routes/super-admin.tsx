import { Box, Loader, Tabs } from '@mantine/core';
import {
  IconBuildingCommunity,
  IconCertificate,
  IconCreditCard,
  IconFileInvoice,
  IconFileSettings,
  IconFlag,
  IconKey,
  IconListDetails,
  IconUsers,
} from '@tabler/icons-react';
import { useIsFetching } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router-dom';
import { PageHeader } from '@/components/layout/page-header';
import { ErrorAlert } from '@/components/ui/error-alert';
import { useSession } from '@/lib/session';
import { adminKeys } from '../api/keys';
import { ConsoleBanners, ConsoleFeedbackProvider } from '../components/console-feedback';
import { ConsoleInvoicesTab } from '../components/console-invoices-tab';
import { FeaturesTab } from '../components/features-tab';
import { InvoiceSettingsTab } from '../components/invoice-settings-tab';
import { OemCredentialsTab } from '../components/oem-credentials-tab';
import { OrganizationsTab } from '../components/organizations-tab';
import { PaymentProvidersTab } from '../components/payment-providers-tab';
import { PlansTab } from '../components/plans-tab';
import { TokenLogsTab } from '../components/token-logs-tab';
import { UsersTab } from '../components/users-tab';

export const ACCESS_DENIED = 'Access Denied - You need super admin privileges to access this page.';

const TABS: { value: string; label: string; icon: ReactNode; panel: () => ReactNode }[] = [
  { value: 'organizations', label: 'Organizations', icon: <IconBuildingCommunity size={16} />, panel: () => <OrganizationsTab /> },
  { value: 'invoices', label: 'Invoices', icon: <IconFileInvoice size={16} />, panel: () => <ConsoleInvoicesTab /> },
  { value: 'invoice-settings', label: 'Invoice Settings', icon: <IconFileSettings size={16} />, panel: () => <InvoiceSettingsTab /> },
  { value: 'users', label: 'Users', icon: <IconUsers size={16} />, panel: () => <UsersTab /> },
  { value: 'token-logs', label: 'Token Logs', icon: <IconListDetails size={16} />, panel: () => <TokenLogsTab /> },
  { value: 'payment-providers', label: 'Payment Providers', icon: <IconCreditCard size={16} />, panel: () => <PaymentProvidersTab /> },
  { value: 'oem-credentials', label: 'OEM Credentials', icon: <IconKey size={16} />, panel: () => <OemCredentialsTab /> },
  { value: 'plans', label: 'Plans', icon: <IconCertificate size={16} />, panel: () => <PlansTab /> },
  { value: 'features', label: 'Features', icon: <IconFlag size={16} />, panel: () => <FeaturesTab /> },
];

/** The platform console: organizations and their status, invoices, users, token logs and platform settings. */
export default function SuperAdminRoute() {
  const { user } = useSession();
  if (user?.role !== 'super_admin') {
    return <ErrorAlert title="Access Denied" message={ACCESS_DENIED} />;
  }
  return (
    <ConsoleFeedbackProvider>
      <Console />
    </ConsoleFeedbackProvider>
  );
}

function Console() {
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const tab = TABS.some((t) => t.value === requested) ? (requested as string) : 'organizations';
  const fetching = useIsFetching({ queryKey: adminKeys.all });

  return (
    <>
      <PageHeader
        title="Super Admin Dashboard"
        subtitle="Manage organizations, settings and platform-wide configuration."
        actions={fetching > 0 ? <Loader size="sm" aria-label="Loading" /> : null}
      />
      <ConsoleBanners />
      <Tabs value={tab} onChange={(v) => v && setParams(v === 'organizations' ? {} : { tab: v }, { replace: true })} keepMounted={false}>
        <Tabs.List mb="lg">
          {TABS.map((t) => (
            <Tabs.Tab key={t.value} value={t.value} leftSection={<Box visibleFrom="xl">{t.icon}</Box>} style={{ whiteSpace: 'nowrap' }} px="sm">
              {t.label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {TABS.map((t) => (
          <Tabs.Panel key={t.value} value={t.value}>
            {t.panel()}
          </Tabs.Panel>
        ))}
      </Tabs>
    </>
  );
}
