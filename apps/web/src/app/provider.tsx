import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { TOAST_DEFAULTS } from '@/lib/notify';
import { createQueryClient } from '@/lib/query-client';
import { useServiceBlockedToasts } from '@/lib/service-blocked';
import { colorSchemeManager, cssVariablesResolver, DEFAULT_COLOR_SCHEME, theme } from '@/lib/theme';

function ServiceBlockedToasts() {
  useServiceBlockedToasts();
  return null;
}

export function AppProvider({
  children,
  queryClient,
  env = 'default',
}: {
  children: ReactNode;
  queryClient?: QueryClient;
  /** 'test' turns off Mantine's transitions and portals (jsdom has no layout to animate). */
  env?: 'default' | 'test';
}) {
  const [client] = useState(() => queryClient ?? createQueryClient());
  return (
    <MantineProvider
      theme={theme}
      colorSchemeManager={colorSchemeManager}
      defaultColorScheme={DEFAULT_COLOR_SCHEME}
      cssVariablesResolver={cssVariablesResolver}
      env={env}
    >
      <Notifications {...TOAST_DEFAULTS} zIndex={1000} />
      <ServiceBlockedToasts />
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    </MantineProvider>
  );
}
