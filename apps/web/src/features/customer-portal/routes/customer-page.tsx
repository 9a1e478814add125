import { Alert, Badge, Box, Button, Card, Center, Container, Divider, Group, Loader, Progress, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconBolt, IconBoltOff, IconCircleCheck, IconDownload } from '@tabler/icons-react';
import type { PortalDevice, PortalView } from '@kidogo/contracts';
import { useParams } from 'react-router-dom';
import { API_BASE, errorMessage } from '@/lib/api-client';
import { usePortalView } from '../api/portal';
import { PayNow } from '../components/pay-now';

type Language = PortalView['language'];

/** Every word of the page, in the languages the organization writes to its customers in. */
const WORDS = {
  en: {
    hello: (name: string) => `Hello ${name}`,
    intro: 'Your devices, what is left to pay, your payments and your codes.',
    on: 'On',
    off: 'Off',
    paidOff: 'Yours for good',
    creditUntil: (date: string, days: number) => `Credit until ${date} (${days === 0 ? 'ends today' : days === 1 ? '1 day left' : `${days} days left`})`,
    ranOut: (date: string) => `The credit ran out on ${date}: pay to switch it on again.`,
    never: 'No credit yet: make your first payment to switch it on.',
    owned: 'Fully paid: the device is unlocked for good.',
    paid: 'Paid',
    left: 'Left to pay',
    perDay: 'A day',
    howToPay: 'How to pay',
    payTo: (paybill: string, serial: string) => `Pay by mobile money to paybill ${paybill}, account ${serial}.`,
    payWith: (serial: string) => `Pay by mobile money with ${serial} as the account number.`,
    codes: 'Your last codes',
    codesHint: 'Type the newest code into the device. Lost the SMS? The codes are here.',
    noCodes: 'No codes yet.',
    payments: 'Your last payments',
    noPayments: 'No payments yet.',
    date: 'Date',
    device: 'Device',
    code: 'Code',
    days: 'Days',
    amount: 'Amount',
    receipt: 'Receipt',
    statement: 'Download my statement (PDF)',
    asOf: (when: string, until: string) => `As of ${when}. This link works until ${until}.`,
    gone: 'This page is not available: the link may have expired. Ask for a new one.',
    tokenTypes: { add_time: 'Days added', activation: 'Activation', set_time: 'Time set', unlock: 'Unlock for good', counter_sync: 'Sync' } as Record<string, string>,
  },
  sw: {
    hello: (name: string) => `Habari ${name}`,
    intro: 'Vifaa vyako, kilichobaki kulipa, malipo yako na namba zako.',
    on: 'Kinawaka',
    off: 'Kimezimwa',
    paidOff: 'Ni chako kabisa',
    creditUntil: (date: string, days: number) => `Salio hadi ${date} (${days === 0 ? 'linaisha leo' : `siku ${days} zimebaki`})`,
    ranOut: (date: string) => `Salio liliisha ${date}: lipa ili kiwake tena.`,
    never: 'Bado hakina salio: fanya malipo ya kwanza ili kiwake.',
    owned: 'Kimelipwa kikamilifu: kifaa kimefunguliwa milele.',
    paid: 'Kilicholipwa',
    left: 'Kilichobaki',
    perDay: 'Kwa siku',
    howToPay: 'Jinsi ya kulipa',
    payTo: (paybill: string, serial: string) => `Lipa kwa pesa ya simu kwa paybill ${paybill}, akaunti ${serial}.`,
    payWith: (serial: string) => `Lipa kwa pesa ya simu ukitumia ${serial} kama namba ya akaunti.`,
    codes: 'Namba zako za mwisho',
    codesHint: 'Weka namba mpya zaidi kwenye kifaa. Umepoteza SMS? Namba ziko hapa.',
    noCodes: 'Bado hakuna namba.',
    payments: 'Malipo yako ya mwisho',
    noPayments: 'Bado hakuna malipo.',
    date: 'Tarehe',
    device: 'Kifaa',
    code: 'Namba',
    days: 'Siku',
    amount: 'Kiasi',
    receipt: 'Risiti',
    statement: 'Pakua taarifa yangu (PDF)',
    asOf: (when: string, until: string) => `Kama ilivyo ${when}. Kiungo hiki kinafanya kazi hadi ${until}.`,
    gone: 'Ukurasa huu haupatikani: huenda kiungo kimeisha muda. Omba kingine.',
    tokenTypes: { add_time: 'Siku zimeongezwa', activation: 'Kuwasha', set_time: 'Muda umewekwa', unlock: 'Kufungua kabisa', counter_sync: 'Kusawazisha' } as Record<string, string>,
  },
  fr: {
    hello: (name: string) => `Bonjour ${name}`,
    intro: 'Vos appareils, ce qui reste à payer, vos paiements et vos codes.',
    on: 'Allumé',
    off: 'Éteint',
    paidOff: 'À vous pour de bon',
    creditUntil: (date: string, days: number) =>
      `Crédit jusqu'au ${date} (${days === 0 ? "s'épuise aujourd'hui" : days === 1 ? '1 jour restant' : `${days} jours restants`})`,
    ranOut: (date: string) => `Le crédit s'est épuisé le ${date} : payez pour le rallumer.`,
    never: 'Pas encore de crédit : faites votre premier paiement pour l’allumer.',
    owned: 'Entièrement payé : l’appareil est débloqué pour toujours.',
    paid: 'Payé',
    left: 'Reste à payer',
    perDay: 'Par jour',
    howToPay: 'Comment payer',
    payTo: (paybill: string, serial: string) => `Payez par mobile money au numéro ${paybill}, compte ${serial}.`,
    payWith: (serial: string) => `Payez par mobile money avec ${serial} comme numéro de compte.`,
    codes: 'Vos derniers codes',
    codesHint: "Saisissez le code le plus récent dans l'appareil. SMS perdu ? Les codes sont ici.",
    noCodes: 'Pas encore de code.',
    payments: 'Vos derniers paiements',
    noPayments: 'Pas encore de paiement.',
    date: 'Date',
    device: 'Appareil',
    code: 'Code',
    days: 'Jours',
    amount: 'Montant',
    receipt: 'Reçu',
    statement: 'Télécharger mon relevé (PDF)',
    asOf: (when: string, until: string) => `Au ${when}. Ce lien fonctionne jusqu'au ${until}.`,
    gone: "Cette page n'est pas disponible : le lien a peut-être expiré. Demandez-en un nouveau.",
    tokenTypes: { add_time: 'Jours ajoutés', activation: 'Activation', set_time: 'Temps réglé', unlock: 'Déblocage définitif', counter_sync: 'Synchronisation' } as Record<string, string>,
  },
} satisfies Record<Language, unknown>;

const LOCALES: Record<Language, string> = { en: 'en-GB', sw: 'sw-KE', fr: 'fr-FR' };

function amount(value: string, currency: string): string {
  const n = Number(value);
  return `${currency} ${n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={600} size="sm">
        {value}
      </Text>
    </Stack>
  );
}

function Device({ d, view, token }: { d: PortalDevice; view: PortalView; token: string }) {
  const w = WORDS[view.language];
  const day = (iso: string) => new Date(iso).toLocaleDateString(LOCALES[view.language], { day: 'numeric', month: 'long', year: 'numeric' });
  const paid = Number(d.total_paid);
  const left = d.remaining === null ? null : Number(d.remaining);
  const share = left === null || paid + left === 0 ? null : Math.round((paid / (paid + left)) * 100);
  const badge =
    d.state === 'paid_off' ? (
      <Badge color="blue" leftSection={<IconCircleCheck size={14} />}>{w.paidOff}</Badge>
    ) : d.state === 'on' ? (
      <Badge color="green" leftSection={<IconBolt size={14} />}>{w.on}</Badge>
    ) : (
      <Badge color="red" leftSection={<IconBoltOff size={14} />}>{w.off}</Badge>
    );
  const status =
    d.state === 'paid_off'
      ? w.owned
      : d.state === 'on' && d.credit_until
        ? w.creditUntil(day(d.credit_until), Math.max(0, d.days_left ?? 0))
        : d.credit_until
          ? w.ranOut(day(d.credit_until))
          : w.never;
  return (
    <Card withBorder radius="md" padding="md" role="region" aria-label={d.serial_number}>
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <Stack gap={0}>
          <Text fw={700}>{d.product_name}</Text>
          <Text size="sm" c="dimmed" ff="monospace">
            {d.serial_number}
          </Text>
        </Stack>
        {badge}
      </Group>
      <Text size="sm" mt="sm" c={d.state === 'off' ? 'red' : undefined} fw={d.state === 'off' ? 600 : undefined}>
        {status}
      </Text>
      <SimpleGrid cols={3} mt="md" spacing="xs">
        <Figure label={w.paid} value={amount(d.total_paid, d.currency)} />
        {d.remaining !== null && d.state !== 'paid_off' ? <Figure label={w.left} value={amount(d.remaining, d.currency)} /> : <span />}
        {d.daily_price !== null && d.state !== 'paid_off' ? <Figure label={w.perDay} value={amount(d.daily_price, d.currency)} /> : null}
      </SimpleGrid>
      {share !== null && d.state !== 'paid_off' ? <Progress value={share} mt="sm" size="sm" aria-label={`${share}%`} /> : null}
      {d.state !== 'paid_off' ? (
        <Text size="sm" mt="sm">
          <Text span fw={600}>
            {w.howToPay}:{' '}
          </Text>
          {view.paybill ? w.payTo(view.paybill, d.serial_number) : w.payWith(d.serial_number)}
        </Text>
      ) : null}
      <PayNow token={token} device={d} view={view} />
    </Card>
  );
}

/**
 * The customer's own page, opened from the link staff sent them, without
 * signing in: each device's credit and what is left to pay, how to pay, the
 * last codes (to type one again) and the last payments. In the language the
 * organization writes to its customers in.
 */
export default function CustomerPageRoute() {
  const { token = '' } = useParams();
  const page = usePortalView(token);
  if (page.isPending) {
    return (
      <Center mih="100dvh">
        <Loader aria-label="Loading" />
      </Center>
    );
  }
  if (page.isError || !page.data) {
    return (
      <Container size="xs" py="xl">
        <Alert color="red" icon={<IconAlertTriangle size={18} />} title="Kidogo">
          {errorMessage(page.error, WORDS.en.gone)}
        </Alert>
      </Container>
    );
  }
  const view = page.data;
  const w = WORDS[view.language];
  const when = (iso: string, time = false) =>
    new Date(iso).toLocaleString(LOCALES[view.language], { day: 'numeric', month: 'short', year: 'numeric', ...(time ? { hour: '2-digit', minute: '2-digit' } : {}) });
  return (
    <Box bg="var(--mantine-color-body)" mih="100dvh">
      <Container size="sm" py="lg" px="sm">
        <Stack gap="lg">
          <Stack gap={2}>
            <Text size="sm" c="dimmed" fw={600}>
              {view.organization_name}
            </Text>
            <Title order={2}>{w.hello(view.first_name)}</Title>
            <Text c="dimmed">{w.intro}</Text>
          </Stack>
          {view.devices.map((d) => (
            <Device key={d.serial_number} d={d} view={view} token={token} />
          ))}
          <Card withBorder radius="md" padding="md" role="region" aria-label={w.codes}>
            <Title order={4}>{w.codes}</Title>
            <Text size="sm" c="dimmed" mb="sm">
              {w.codesHint}
            </Text>
            {view.codes.length === 0 ? (
              <Text size="sm">{w.noCodes}</Text>
            ) : (
              <Stack gap="xs">
                {view.codes.map((c, i) => (
                  <Box key={`${c.serial_number}-${c.created_at}-${i}`}>
                    {i > 0 ? <Divider mb="xs" /> : null}
                    <Group justify="space-between" wrap="nowrap" align="flex-start">
                      <Stack gap={0}>
                        <Text ff="monospace" fw={700} fz="lg" style={{ letterSpacing: 1 }}>
                          {c.token}
                        </Text>
                        <Text size="xs" c="dimmed">
                          {c.serial_number} · {w.tokenTypes[c.token_type] ?? c.token_type}
                          {c.days > 0 ? ` · ${c.days} ${w.days.toLowerCase()}` : ''}
                        </Text>
                      </Stack>
                      <Text size="xs" c="dimmed" ta="right">
                        {when(c.created_at, true)}
                      </Text>
                    </Group>
                  </Box>
                ))}
              </Stack>
            )}
          </Card>
          <Card withBorder radius="md" padding="md" role="region" aria-label={w.payments}>
            <Title order={4} mb="sm">
              {w.payments}
            </Title>
            {view.payments.length === 0 ? (
              <Text size="sm">{w.noPayments}</Text>
            ) : (
              <Table aria-label={w.payments} verticalSpacing={6} fz="sm">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{w.date}</Table.Th>
                    <Table.Th>{w.device}</Table.Th>
                    <Table.Th ta="right">{w.amount}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {view.payments.map((p, i) => (
                    <Table.Tr key={`${p.paid_at}-${i}`}>
                      <Table.Td>{when(p.paid_at)}</Table.Td>
                      <Table.Td ff="monospace">{p.serial_number}</Table.Td>
                      <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                        {amount(p.amount, p.currency)}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            )}
          </Card>
          <Button
            component="a"
            href={`${API_BASE}/portal/${encodeURIComponent(token)}/statement`}
            variant="light"
            leftSection={<IconDownload size={16} />}
            rel="noreferrer"
            fullWidth
          >
            {w.statement}
          </Button>
          <Text size="xs" c="dimmed" ta="center">
            {w.asOf(when(view.as_of, true), when(view.link_expires_at))}
          </Text>
        </Stack>
      </Container>
    </Box>
  );
}
