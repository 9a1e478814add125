import {
  Anchor,
  Badge,
  Box,
  Button,
  Card,
  Container,
  Grid,
  Group,
  SimpleGrid,
  Stack,
  Text,
  ThemeIcon,
  Title,
} from '@mantine/core';
import {
  IconArrowRight,
  IconBook,
  IconBuildingStore,
  IconChartBar,
  IconCode,
  IconDeviceMobileMessage,
  IconLock,
  IconMail,
  IconQrcode,
  IconServer,
  IconWorld,
} from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link, Navigate } from 'react-router-dom';
import { FullPageLoader } from '@/components/ui/full-page-loader';
import { Logo } from '@/components/ui/logo';
import { links } from '@/config/links';
import { paths } from '@/config/paths';
import { useSession } from '@/lib/session';
import { HeroPreview } from '../components/hero-preview';
import { LandingHeader, SECTIONS } from '../components/landing-header';

const YEAR = new Date().getFullYear();

const SOLUTIONS = [
  {
    icon: IconDeviceMobileMessage,
    title: 'Mobile-money forwarding into your CRM',
    body: 'Payment confirmations from M-Pesa, Airtel Money, MTN MoMo and other wallets are forwarded into Kidogo, parsed and matched to the right customer and device, with no manual reconciliation.',
  },
  {
    icon: IconQrcode,
    title: 'QR payment systems',
    body: 'Give every device and agent a QR code. Customers scan, pay from their phone, and the payment lands against the right account.',
  },
  {
    icon: IconBuildingStore,
    title: 'Smart vending machines',
    body: 'Run vending machines and kiosks on the same ledger: credit sold at the machine unlocks the device the moment it is paid for.',
  },
  {
    icon: IconChartBar,
    title: 'Analytics',
    body: 'Revenue, repayment rates, token activity and portfolio health for every organization, in real time, without spreadsheets.',
  },
];

const STEPS = [
  { n: '1', title: 'The customer pays', body: 'A small payment by mobile money, whenever it suits them.' },
  { n: '2', title: 'Kidogo matches it', body: 'The message is parsed and credited to the customer’s device plan.' },
  { n: '3', title: 'The device unlocks', body: 'A token for the days paid goes out by SMS, in seconds.' },
];

const PRINCIPLES = [
  {
    icon: IconServer,
    title: 'Self-hosted',
    body: 'Run Kidogo on your own servers. Your customers’ data never leaves your infrastructure.',
  },
  {
    icon: IconLock,
    title: 'Isolated by organization',
    body: 'Every organization sees only its own customers, devices and payments: enforced on every call.',
  },
  {
    icon: IconCode,
    title: 'Open source',
    body: 'Read the code, extend it, and integrate it with the tools you already use.',
  },
];

function Section({ id, eyebrow, title, intro, children, tinted }: {
  id: string;
  eyebrow: string;
  title: string;
  intro: string;
  children: ReactNode;
  tinted?: boolean;
}) {
  return (
    <Box
      component="section"
      id={id}
      py={{ base: 64, md: 96 }}
      bg={tinted ? 'var(--kidogo-section-bg)' : undefined}
      style={{ scrollMarginTop: 64 }}
      aria-labelledby={`${id}-title`}
    >
      <Container size="lg">
        <Stack gap="xs" maw={680} mb={48}>
          <Text c="kidogo" fw={700} tt="uppercase" size="sm" lts={1}>
            {eyebrow}
          </Text>
          <Title order={2} id={`${id}-title`} fz={{ base: 28, md: 36 }}>
            {title}
          </Title>
          <Text c="dimmed" size="lg">
            {intro}
          </Text>
        </Stack>
        {children}
      </Container>
    </Box>
  );
}

export default function LandingRoute() {
  const { isAuthenticated, isLoading } = useSession();
  if (isLoading) return <FullPageLoader label="Checking your session" />;
  if (isAuthenticated) return <Navigate to={paths.app.dashboard.getHref()} replace />;

  const login = paths.login.getHref();

  return (
    <Box bg="var(--mantine-color-body)">
      <LandingHeader />
      <main>
        <Box style={{ background: 'var(--kidogo-hero-bg)' }}>
          <Container size="lg" py={{ base: 56, md: 104 }}>
            <Grid gap={{ base: 40, md: 64 }} align="center">
              <Grid.Col span={{ base: 12, md: 7 }}>
                <Stack gap="lg">
                  <Badge variant="light" size="lg" radius="sm" w="fit-content">
                    Pay-as-you-go back office
                  </Badge>
                  <Title order={1} fz={{ base: 36, sm: 44, md: 54 }} lh={1.08} lts={-1}>
                    Small payments.{' '}
                    <Text span inherit variant="gradient">
                      Devices that pay for themselves.
                    </Text>
                  </Title>
                  <Text size="xl" c="dimmed" maw={560}>
                    Kidogo runs your solar kits, phones and e-bikes sold on credit: customers pay by mobile money, and
                    the right unlock token goes out on its own.
                  </Text>
                  <Group gap="sm">
                    <Button component={Link} to={login} size="lg" rightSection={<IconArrowRight size={18} />}>
                      Get Started
                    </Button>
                    <Button component={Link} to={login} size="lg" variant="default">
                      Request Demo
                    </Button>
                  </Group>
                  <Group gap="xl" mt="sm">
                    {[
                      ['Real time', 'payment matching'],
                      ['Seconds', 'to an unlock token'],
                      ['Yours', 'servers and data'],
                    ].map(([big, small]) => (
                      <div key={big}>
                        <Text fw={800} fz="xl">
                          {big}
                        </Text>
                        <Text size="sm" c="dimmed">
                          {small}
                        </Text>
                      </div>
                    ))}
                  </Group>
                </Stack>
              </Grid.Col>
              <Grid.Col span={{ base: 12, md: 5 }}>
                <HeroPreview />
              </Grid.Col>
            </Grid>
          </Container>
        </Box>

        <Section
          id="solutions"
          eyebrow="Solutions"
          title="Everything between a mobile-money payment and a working device"
          intro="Kidogo brings payments, customers, devices and tokens into one place, so your team spends its day on customers, not on reconciliation."
        >
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
            {SOLUTIONS.map((s) => (
              <Card key={s.title} padding="xl" radius="lg">
                <ThemeIcon size={48} radius="md" variant="gradient" mb="md">
                  <s.icon size={26} />
                </ThemeIcon>
                <Title order={3} fz="lg" mb={6}>
                  {s.title}
                </Title>
                <Text c="dimmed" size="sm" lh={1.6}>
                  {s.body}
                </Text>
              </Card>
            ))}
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="lg" mt={48}>
            {STEPS.map((s) => (
              <Group key={s.n} align="flex-start" wrap="nowrap" gap="md">
                <ThemeIcon size={36} radius="xl" variant="light">
                  <Text fw={800} size="sm">
                    {s.n}
                  </Text>
                </ThemeIcon>
                <div>
                  <Text fw={700}>{s.title}</Text>
                  <Text size="sm" c="dimmed">
                    {s.body}
                  </Text>
                </div>
              </Group>
            ))}
          </SimpleGrid>
        </Section>

        <Section
          id="company"
          tinted
          eyebrow="Company"
          title="Built for pay-as-you-go operators in East Africa"
          intro="Kidogo means “small” in Swahili. Small, regular payments are how millions of households get solar power, phones and transport. We build the back office that makes that work at scale."
        >
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="lg">
            {PRINCIPLES.map((p) => (
              <Card key={p.title} padding="xl" radius="lg">
                <ThemeIcon size={42} radius="md" variant="light" mb="md">
                  <p.icon size={22} />
                </ThemeIcon>
                <Text fw={700} mb={4}>
                  {p.title}
                </Text>
                <Text size="sm" c="dimmed" lh={1.6}>
                  {p.body}
                </Text>
              </Card>
            ))}
          </SimpleGrid>
        </Section>

        <Section
          id="resources"
          eyebrow="Resources"
          title="Get up and running"
          intro="Documentation for your developers, and people to talk to when you need them."
        >
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="lg">
            <Card padding="xl" radius="lg" component="a" href={links.documentation} target="_blank" rel="noopener noreferrer">
              <ThemeIcon size={42} radius="md" variant="light" mb="md">
                <IconBook size={22} />
              </ThemeIcon>
              <Text fw={700}>API documentation</Text>
              <Text size="sm" c="dimmed">
                Every endpoint for customers, payments and tokens, with examples.
              </Text>
            </Card>
            <Card padding="xl" radius="lg" component="a" href={`mailto:${links.contactEmail}`}>
              <ThemeIcon size={42} radius="md" variant="light" mb="md">
                <IconMail size={22} />
              </ThemeIcon>
              <Text fw={700}>Support</Text>
              <Text size="sm" c="dimmed">
                Write to {links.contactEmail} and a person will answer.
              </Text>
            </Card>
            <Card padding="xl" radius="lg" component={Link} to={login}>
              <ThemeIcon size={42} radius="md" variant="light" mb="md">
                <IconWorld size={22} />
              </ThemeIcon>
              <Text fw={700}>Sign in to your back office</Text>
              <Text size="sm" c="dimmed">
                Already running Kidogo? Pick up where your team left off.
              </Text>
            </Card>
          </SimpleGrid>
        </Section>

        <Container size="lg" pb={{ base: 64, md: 96 }}>
          <Card
            radius="xl"
            padding={48}
            withBorder={false}
            style={{ background: 'linear-gradient(135deg, var(--mantine-color-kidogo-8), #5c940d)' }}
          >
            <Group justify="space-between" align="center" gap="xl">
              <Stack gap={6} maw={560}>
                <Title order={2} c="white" fz={{ base: 26, md: 32 }}>
                  See your portfolio run itself
                </Title>
                <Text c="white" opacity={0.85}>
                  We will walk you through Kidogo with your own products and payment plans.
                </Text>
              </Stack>
              <Group gap="sm">
                <Button component={Link} to={login} size="lg" color="white" c="kidogo.8">
                  Request Demo
                </Button>
                <Button component={Link} to={login} size="lg" variant="outline" color="white">
                  Contact Sales
                </Button>
              </Group>
            </Group>
          </Card>
        </Container>
      </main>

      <Box component="footer" py="xl" style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}>
        <Container size="lg">
          <Group justify="space-between" gap="md">
            <Group gap="md">
              <Logo size={24} />
              <Text size="sm" c="dimmed">
                © {YEAR} Kidogo. Open-source PAYG back office.
              </Text>
            </Group>
            <Group gap="lg">
              {SECTIONS.map((s) => (
                <Anchor key={s.id} href={`#${s.id}`} size="sm" c="dimmed">
                  {s.label}
                </Anchor>
              ))}
            </Group>
          </Group>
        </Container>
      </Box>
    </Box>
  );
}
