import { Anchor, Box, Burger, Button, Container, Divider, Drawer, Group, Stack } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Link } from 'react-router-dom';
import { ThemeToggle } from '@/components/layout/theme-toggle';
import { Logo } from '@/components/ui/logo';
import { paths } from '@/config/paths';

export const SECTIONS = [
  { id: 'solutions', label: 'Solutions' },
  { id: 'company', label: 'Company' },
  { id: 'resources', label: 'Resources' },
] as const;

export function LandingHeader() {
  const [opened, { toggle, close }] = useDisclosure(false);
  return (
    <Box
      component="header"
      pos="sticky"
      top={0}
      style={{
        zIndex: 100,
        backdropFilter: 'saturate(180%) blur(12px)',
        background: 'color-mix(in srgb, var(--mantine-color-body) 82%, transparent)',
        borderBottom: '1px solid var(--mantine-color-default-border)',
      }}
    >
      <Container size="lg" h={64}>
        <Group h="100%" justify="space-between" wrap="nowrap">
          <Anchor component={Link} to={paths.home.getHref()} c="inherit" underline="never" aria-label="Kidogo home">
            <Logo size={30} />
          </Anchor>
          <Group gap="xl" visibleFrom="sm" component="nav" aria-label="Sections">
            {SECTIONS.map((s) => (
              <Anchor key={s.id} href={`#${s.id}`} c="dimmed" fw={500} size="sm" underline="never">
                {s.label}
              </Anchor>
            ))}
          </Group>
          <Group gap="xs" wrap="nowrap">
            <ThemeToggle />
            <Group gap="xs" visibleFrom="sm">
              <Button component={Link} to={paths.login.getHref()} variant="default">
                Login
              </Button>
              <Button component={Link} to={paths.login.getHref()}>
                Get Started
              </Button>
            </Group>
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label="Open menu" />
          </Group>
        </Group>
      </Container>
      <Drawer opened={opened} onClose={close} size="100%" hiddenFrom="sm" title={<Logo size={26} />} zIndex={200}>
        <Stack gap="md">
          {SECTIONS.map((s) => (
            <Anchor key={s.id} href={`#${s.id}`} onClick={close} c="inherit" fw={600} fz="lg" underline="never">
              {s.label}
            </Anchor>
          ))}
          <Divider />
          <Button component={Link} to={paths.login.getHref()} variant="default" fullWidth>
            Login
          </Button>
          <Button component={Link} to={paths.login.getHref()} fullWidth>
            Get Started
          </Button>
        </Stack>
      </Drawer>
    </Box>
  );
}
