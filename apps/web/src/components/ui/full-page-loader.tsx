import { Center, Loader } from '@mantine/core';

/** The spinner shown while the session or a route's code loads. */
export function FullPageLoader({ label = 'Loading' }: { label?: string }) {
  return (
    <Center h="100dvh" w="100%" role="status" aria-label={label}>
      <Loader size="lg" type="dots" />
    </Center>
  );
}
