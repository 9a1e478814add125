import { Box, Skeleton, Text } from '@mantine/core';
import { useEffect, useState } from 'react';

export const QR_ALT = 'QR code for your authenticator app';

/** The otpauth:// URL as an SVG image. The encoder loads with the setup step only, not with Settings or the sign-in page. */
async function drawQr(value: string): Promise<string> {
  const mod = await import('qrcode');
  // A CommonJS module: the bundler hands over its exports as `default`, or as the namespace itself.
  const qr = (mod as unknown as { default?: typeof mod }).default ?? mod;
  const svg = await qr.toString(value, { type: 'svg', margin: 2, errorCorrectionLevel: 'M' });
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}

/** Dark on white whatever the theme: scanners need the contrast, and the quiet zone around it. */
export function QrCode({ value, size = 184 }: { value: string; size?: number }) {
  const [drawn, setDrawn] = useState<{ value: string; src: string | null } | null>(null);

  useEffect(() => {
    let live = true;
    drawQr(value).then(
      (src) => live && setDrawn({ value, src }),
      () => live && setDrawn({ value, src: null }),
    );
    return () => {
      live = false;
    };
  }, [value]);

  if (drawn?.value !== value) return <Skeleton w={size} h={size} radius="md" aria-label="Drawing the QR code" />;
  if (!drawn.src) {
    return (
      <Text size="sm" c="dimmed" w={size}>
        The QR code could not be drawn: type the setup key into your app instead.
      </Text>
    );
  }
  return (
    <Box bg="white" p={4} w={size} h={size} style={{ borderRadius: 'var(--mantine-radius-md)', border: '1px solid var(--mantine-color-default-border)', flexShrink: 0 }}>
      <img src={drawn.src} alt={QR_ALT} width={size - 10} height={size - 10} style={{ display: 'block' }} />
    </Box>
  );
}
