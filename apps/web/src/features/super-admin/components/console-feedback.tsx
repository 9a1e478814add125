import { Alert, Box, Stack } from '@mantine/core';
import { IconAlertCircle, IconCircleCheck } from '@tabler/icons-react';
import { createContext, use, useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';

interface Feedback {
  error: (message: string) => void;
  success: (message: string) => void;
  clear: () => void;
}

interface BannerState {
  error: string | null;
  success: string | null;
}

const FeedbackContext = createContext<Feedback | null>(null);
const BannerContext = createContext<{ state: BannerState; clear: (kind: keyof BannerState) => void } | null>(null);

/** The console reports every action in one place: a red banner for failures, a green one for successes. */
export function ConsoleFeedbackProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<BannerState>({ error: null, success: null });
  const error = useCallback((message: string) => setState({ error: message, success: null }), []);
  const success = useCallback((message: string) => setState({ error: null, success: message }), []);
  const clearAll = useCallback(() => setState({ error: null, success: null }), []);
  const clear = useCallback((kind: keyof BannerState) => setState((s) => ({ ...s, [kind]: null })), []);
  const feedback = useMemo(() => ({ error, success, clear: clearAll }), [error, success, clearAll]);
  const banners = useMemo(() => ({ state, clear }), [state, clear]);

  // A success is news for a moment; a failure stays until read.
  useEffect(() => {
    if (!state.success) return;
    const t = setTimeout(() => clear('success'), 6000);
    return () => clearTimeout(t);
  }, [state.success, clear]);

  return (
    <FeedbackContext value={feedback}>
      <BannerContext value={banners}>{children}</BannerContext>
    </FeedbackContext>
  );
}

export function useConsoleFeedback(): Feedback {
  const ctx = use(FeedbackContext);
  if (!ctx) throw new Error('useConsoleFeedback must be used inside <ConsoleFeedbackProvider>');
  return ctx;
}

/** The banners, kept in view at the top of the console while the page scrolls. */
export function ConsoleBanners() {
  const ctx = use(BannerContext);
  if (!ctx || (!ctx.state.error && !ctx.state.success)) return null;
  return (
    <Box pos="sticky" top={68} style={{ zIndex: 50 }} mb="md">
      <Stack gap="xs">
        {ctx.state.error ? (
          <Alert
            color="red"
            variant="filled"
            icon={<IconAlertCircle size={18} />}
            withCloseButton
            closeButtonLabel="Dismiss error"
            onClose={() => ctx.clear('error')}
            role="alert"
            data-testid="console-error"
          >
            {ctx.state.error}
          </Alert>
        ) : null}
        {ctx.state.success ? (
          <Alert
            color="green"
            variant="filled"
            icon={<IconCircleCheck size={18} />}
            withCloseButton
            closeButtonLabel="Dismiss"
            onClose={() => ctx.clear('success')}
            role="status"
            data-testid="console-success"
          >
            {ctx.state.success}
          </Alert>
        ) : null}
      </Stack>
    </Box>
  );
}
