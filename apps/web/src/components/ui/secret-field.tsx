import { ActionIcon, CopyButton, Group, TextInput, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';

/**
 * A secret shown once (a signing secret, an API token): read-only, in
 * monospace, with a Copy button named `copyLabel`. `shown` is the secret as
 * it is easier to read (grouped); Copy always takes `value` itself.
 */
export function SecretField({ label, value, copyLabel, shown }: { label: string; value: string; copyLabel: string; shown?: string }) {
  return (
    <Group gap="xs" wrap="nowrap" align="flex-end">
      <TextInput flex={1} label={label} readOnly value={shown ?? value} styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }} />
      <CopyButton value={value} timeout={1500}>
        {({ copied, copy }) => (
          <Tooltip label={copied ? 'Copied' : 'Copy'} withArrow>
            <ActionIcon size="input-sm" variant="default" color={copied ? 'teal' : undefined} aria-label={copyLabel} onClick={copy}>
              {copied ? <IconCheck size={18} /> : <IconCopy size={18} />}
            </ActionIcon>
          </Tooltip>
        )}
      </CopyButton>
    </Group>
  );
}
