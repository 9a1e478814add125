import { Grid, Stack } from '@mantine/core';
import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { PageHeader } from '@/components/layout/page-header';
import { SETTINGS_CARDS } from '@/config/paths';
import { managesOrganization, useSession } from '@/lib/session';
import { ApiKeyCard } from '../components/api-key-card';
import { ChangePasswordCard } from '../components/change-password-card';
import { ReceiverInstructionsCard } from '../components/receiver-instructions-card';
import { CommissionsCard } from '../components/commissions-card';
import { FollowOnSalesCard } from '@/features/credit-check/components/follow-on-sales-card';
import { WarrantiesCard } from '@/features/warranties/components/warranties-card';
import { AgreementCard } from '../components/agreement-card';
import { PhoneCountryCard } from '../components/phone-country-card';
import { RemindersCard } from '../components/reminders-card';
import { SmsProviderCard } from '../components/sms-provider-card';
import { SystemConfigCard } from '../components/system-config-card';
import { TeamCard } from '../components/team-card';
import { WebhooksCard } from '@/features/webhooks/components/webhooks-card';
import { MpesaExpressCard } from '@/features/mpesa-express/components/mpesa-express-card';
import { MtnMomoCard } from '@/features/mtn-momo/components/mtn-momo-card';
import { AirtelMoneyCard } from '@/features/airtel-money/components/airtel-money-card';
import { UssdCard } from '@/features/ussd/components/ussd-card';
import { ApiTokensCard } from '@/features/api-tokens/components/api-tokens-card';
import { TwoFactorCard } from '@/features/two-factor/components/two-factor-card';
import { SecurityCard } from '@/features/two-factor/components/security-card';
import { SignedInDevicesCard } from '@/features/sessions/components/signed-in-devices-card';
import { NotificationsLinkCard } from '@/features/notifications/components/notifications-link-card';

export default function SettingsRoute() {
  const { user } = useSession();
  // The organization's integration settings and its users (the API enforces the same).
  const manages = managesOrganization(user);
  // A link to one of the owner's cards (/settings#agent-commissions) opens the page at it, once they are shown.
  const { hash } = useLocation();
  useEffect(() => {
    if (hash && manages) document.getElementById(decodeURIComponent(hash.slice(1)))?.scrollIntoView({ block: 'start' });
  }, [hash, manages]);

  return (
    <>
      <PageHeader
        title="Settings"
        subtitle={manages ? 'Your password, your team, and how payments reach your organization.' : 'Your password and how this system is set up.'}
      />
      <Stack gap="lg">
        {/* Full width (a table) and first: the two columns below end at different heights, so it must not sit under them. */}
        {manages ? <TeamCard /> : null}
        <Grid gap="lg">
          <Grid.Col span={{ base: 12, lg: 6 }}>
            <Stack gap="lg">
              <SystemConfigCard />
              {manages ? <ApiKeyCard /> : null}
              {manages ? <SmsProviderCard /> : null}
              {manages ? <PhoneCountryCard /> : null}
              {manages ? <RemindersCard /> : null}
              {/* #agent-commissions: the Agent Commissions page links here when no commission is set. */}
              {manages ? (
                <div id={SETTINGS_CARDS.agentCommissions}>
                  <CommissionsCard />
                </div>
              ) : null}
              {manages ? <FollowOnSalesCard /> : null}
              {/* Staff read it too: whether the maker stands behind a faulty device they swap or repair. */}
              <WarrantiesCard />
              {manages ? <AgreementCard /> : null}
            </Stack>
          </Grid.Col>
          <Grid.Col span={{ base: 12, lg: 6 }}>
            <Stack gap="lg">
              <ChangePasswordCard />
              <TwoFactorCard />
              {/* Security is the organization's two-factor rule: it stays next to the user's own. */}
              {manages ? <SecurityCard /> : null}
              <SignedInDevicesCard />
              <NotificationsLinkCard />
              <ApiTokensCard />
              {manages ? <ReceiverInstructionsCard /> : null}
              {/* Next to Receiving Payments: the other way payments reach the organization (asking the customer's phone). */}
              {manages ? <MpesaExpressCard /> : null}
              {manages ? <MtnMomoCard /> : null}
              {manages ? <AirtelMoneyCard /> : null}
              {/* After the ways to ask a phone to pay: the customer's own way in, from any phone, to pay and more. */}
              {manages ? <UssdCard /> : null}
            </Stack>
          </Grid.Col>
        </Grid>
        {/* Full width: a table of endpoints. */}
        {manages ? <WebhooksCard /> : null}
      </Stack>
    </>
  );
}
