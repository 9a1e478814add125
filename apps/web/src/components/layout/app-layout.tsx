import { ActionIcon, AppShell, Box, Burger, Group, NavLink, ScrollArea, Stack, Tooltip } from '@mantine/core';
import { useDisclosure, useLocalStorage } from '@mantine/hooks';
import { IconLayoutSidebarLeftCollapse, IconLayoutSidebarLeftExpand } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { Logo } from '@/components/ui/logo';
import { paths } from '@/config/paths';
import { useSession } from '@/lib/session';
import { STORAGE_KEYS } from '@/lib/storage';
import { HelpMenu } from './help-menu';
import { ServiceBlockedBanner } from './service-blocked-banner';
import { isNavItemActive, navItemsFor } from './nav-items';
import { ThemeToggle } from './theme-toggle';
import { UserMenu } from './user-menu';

const EXPANDED_WIDTH = 248;
const COLLAPSED_WIDTH = 72;

/**
 * The back office frame. On desktop the sidebar shrinks to icons (remembered
 * across visits); on phones it is a drawer opened by the burger. `find` and
 * `notifications` come from the features that own them.
 */
export function AppLayout({ find, notifications, children }: { find?: ReactNode; notifications?: ReactNode; children: ReactNode }) {
  const [mobileOpened, { toggle: toggleMobile, close: closeMobile }] = useDisclosure(false);
  const [expanded, setExpanded] = useLocalStorage<boolean>({
    key: STORAGE_KEYS.sidebarExpanded,
    defaultValue: true,
    getInitialValueInEffect: false,
  });
  const { user, organizationId } = useSession();
  const { pathname } = useLocation();
  // The drawer on phones always shows labels; only the desktop rail collapses.
  const compact = !expanded && !mobileOpened;

  return (
    <AppShell
      header={{ height: 60 }}
      navbar={{
        width: { base: EXPANDED_WIDTH, sm: expanded ? EXPANDED_WIDTH : COLLAPSED_WIDTH },
        breakpoint: 'sm',
        collapsed: { mobile: !mobileOpened },
      }}
      padding={{ base: 'md', md: 'xl' }}
    >
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger opened={mobileOpened} onClick={toggleMobile} hiddenFrom="sm" size="sm" aria-label="Toggle navigation" />
            <Link to={paths.app.dashboard.getHref()} style={{ color: 'inherit', textDecoration: 'none' }}>
              {/* On a phone the mark alone: the header's buttons (Find among them) need the room. */}
              <Box visibleFrom="xs">
                <Logo size={30} />
              </Box>
              <Box hiddenFrom="xs">
                <Logo size={30} withWordmark={false} />
              </Box>
            </Link>
            <Tooltip label={expanded ? 'Collapse sidebar' : 'Expand sidebar'} withArrow>
              <ActionIcon
                variant="subtle"
                color="gray"
                visibleFrom="sm"
                ml="md"
                aria-label={expanded ? 'Collapse sidebar' : 'Expand sidebar'}
                aria-expanded={expanded}
                onClick={() => setExpanded((v) => !v)}
              >
                {expanded ? <IconLayoutSidebarLeftCollapse size={20} stroke={1.6} /> : <IconLayoutSidebarLeftExpand size={20} stroke={1.6} />}
              </ActionIcon>
            </Tooltip>
          </Group>
          <Group gap={4} wrap="nowrap">
            {/* Find searches one organization's records: a super admin outside any has none to search. */}
            {organizationId ? find : null}
            {notifications}
            <HelpMenu />
            <ThemeToggle />
            <UserMenu />
          </Group>
        </Group>
      </AppShell.Header>

      <AppShell.Navbar p={compact ? 'xs' : 'sm'} aria-label="Main navigation">
        <AppShell.Section grow component={ScrollArea} scrollbars="y">
          <Stack gap={2}>
            {navItemsFor(user?.role).map((item) => {
              const active = isNavItemActive(item, pathname);
              const icon = <item.icon size={20} stroke={1.6} />;
              return compact ? (
                <Tooltip key={item.href} label={item.label} position="right" withArrow>
                  <NavLink
                    component={Link}
                    to={item.href}
                    active={active}
                    aria-label={item.label}
                    aria-current={active ? 'page' : undefined}
                    leftSection={icon}
                    variant="light"
                    styles={{
                      root: { borderRadius: 'var(--mantine-radius-md)', justifyContent: 'center' },
                      section: { margin: 0 },
                      body: { display: 'none' },
                    }}
                  />
                </Tooltip>
              ) : (
                <NavLink
                  key={item.href}
                  component={Link}
                  to={item.href}
                  label={item.label}
                  active={active}
                  aria-current={active ? 'page' : undefined}
                  leftSection={icon}
                  variant="light"
                  onClick={closeMobile}
                  style={{ borderRadius: 'var(--mantine-radius-md)' }}
                  fw={active ? 600 : 500}
                />
              );
            })}
          </Stack>
        </AppShell.Section>
      </AppShell.Navbar>

      <AppShell.Main bg="var(--kidogo-app-bg)">
        <div style={{ maxWidth: 1440, marginInline: 'auto' }}>
          <ServiceBlockedBanner />
          {children}
        </div>
      </AppShell.Main>
    </AppShell>
  );
}
