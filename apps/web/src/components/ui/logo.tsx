import { Group, Text } from '@mantine/core';
import { useId } from 'react';

/** The Kidogo mark: a K on a rounded green tile. */
export function LogoMark({ size = 32 }: { size?: number }) {
  // The header and the footer both draw the mark: each needs its own gradient id.
  const gradientId = useId();
  return (
    <svg width={size} height={size} viewBox="0 0 64 64" aria-hidden focusable="false">
      <defs>
        <linearGradient id={gradientId} x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#0b9169" />
          <stop offset="1" stopColor="#74b816" />
        </linearGradient>
      </defs>
      <rect width="64" height="64" rx="16" fill={`url(#${gradientId})`} />
      <path d="M20 14h8v15l13-15h10L36 31l16 19H41L28 34v16h-8z" fill="#fff" />
    </svg>
  );
}

export function Logo({ size = 32, withWordmark = true }: { size?: number; withWordmark?: boolean }) {
  return (
    <Group gap={10} wrap="nowrap" aria-label="Kidogo">
      <LogoMark size={size} />
      {withWordmark ? (
        <Text fw={800} fz={Math.round(size * 0.62)} lts={-0.5} style={{ lineHeight: 1 }}>
          Kidogo
        </Text>
      ) : null}
    </Group>
  );
}
