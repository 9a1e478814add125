import { Button, Group, Modal, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { TokenText, tokenTypeLabel } from '@/components/ui/token-text';
import type { TokenReply } from '../api/types';

/** 'Token Generated': the code to give the customer, its type and days. */
export function TokenResultModal({ token, onClose }: { token: TokenReply | null; onClose: () => void }) {
  return (
    <Modal opened={token !== null} onClose={onClose} title="Token Generated" size="md">
      {token ? (
        <Stack gap="md">
          <Paper withBorder p="md" radius="md" ta="center" bg="var(--mantine-color-default-hover)">
            <Text size="xs" c="dimmed" fw={600} tt="uppercase" mb={4}>
              Token
            </Text>
            <Group justify="center">
              <TokenText token={token.code_token} copyable fz={26} fw={700} data-testid="generated-token" />
            </Group>
          </Paper>
          <SimpleGrid cols={3}>
            <Stack gap={2}>
              <Text size="xs" c="dimmed" fw={600} tt="uppercase">
                Type
              </Text>
              <Text size="sm" fw={500}>
                {tokenTypeLabel(token.code_type)}
              </Text>
            </Stack>
            <Stack gap={2}>
              <Text size="xs" c="dimmed" fw={600} tt="uppercase">
                Days
              </Text>
              <Text size="sm" fw={500}>
                {token.days}
              </Text>
            </Stack>
            <Stack gap={2}>
              <Text size="xs" c="dimmed" fw={600} tt="uppercase">
                Device
              </Text>
              <Text size="sm" fw={500} ff="monospace">
                {token.serial_number}
              </Text>
            </Stack>
          </SimpleGrid>
          {token.code_type === 'set_time' || token.code_type === 'unlock' || token.code_type === 'counter_sync' ? (
            <Text size="sm" c="dimmed">
              Once the device takes this code it refuses every older one: those show as Expired.
            </Text>
          ) : null}
          <Group justify="flex-end">
            <Button onClick={onClose}>Done</Button>
          </Group>
        </Stack>
      ) : null}
    </Modal>
  );
}
