import { ActionIcon, CopyButton, Group, Text, Tooltip, type TextProps } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';

const TYPE_LABELS: Record<string, string> = {
  add_time: 'Add time',
  set_time: 'Set time',
  activation: 'Activation',
  unlock: 'Unlock',
  counter_sync: 'Counter sync',
  daily: 'Daily',
};

/** 'add_time' → 'Add time'; unknown types read as themselves, capitalised. */
export function tokenTypeLabel(type: string | null | undefined): string {
  const t = (type ?? '').trim();
  if (!t) return '—';
  return TYPE_LABELS[t] ?? t.charAt(0).toUpperCase() + t.slice(1).replace(/_/g, ' ');
}

/** A token in groups of three digits, as people read it out and type it ("123 456 789"). */
export function formatToken(token: string | null | undefined): string {
  const digits = (token ?? '').replace(/\s+/g, '');
  if (!digits) return '—';
  return digits.replace(/(.{3})(?=.)/g, '$1 ');
}

/** A token in monospace, grouped for reading; `copyable` adds a copy button (copies the bare digits). */
export function TokenText({ token, copyable = false, ...props }: { token: string | null | undefined; copyable?: boolean } & TextProps) {
  const text = (
    <Text span ff="monospace" style={{ whiteSpace: 'nowrap', letterSpacing: '0.02em' }} {...props}>
      {formatToken(token)}
    </Text>
  );
  if (!copyable || !token) return text;
  return (
    <Group gap={6} wrap="nowrap" component="span">
      {text}
      <CopyButton value={token.replace(/\s+/g, '')} timeout={1500}>
        {({ copied, copy }) => (
          <Tooltip label={copied ? 'Copied' : 'Copy token'} withArrow>
            <ActionIcon variant="subtle" color={copied ? 'teal' : 'gray'} onClick={copy} aria-label="Copy token">
              {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
            </ActionIcon>
          </Tooltip>
        )}
      </CopyButton>
    </Group>
  );
}
