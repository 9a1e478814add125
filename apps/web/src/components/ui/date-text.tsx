import { Text, type TextProps } from '@mantine/core';

export function parseDate(value: string | number | Date | null | undefined): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** A date in the user's locale (and time zone); '—' when missing or unparsable. */
export function formatDate(value: string | number | Date | null | undefined, withTime = false): string {
  const date = parseDate(value);
  if (!date) return '—';
  return new Intl.DateTimeFormat(undefined, withTime ? { dateStyle: 'medium', timeStyle: 'short' } : { dateStyle: 'medium' }).format(date);
}

export function DateText({
  value,
  withTime = false,
  ...props
}: { value: string | number | Date | null | undefined; withTime?: boolean } & TextProps) {
  const date = parseDate(value);
  return (
    <Text span size="sm" style={{ whiteSpace: 'nowrap' }} {...props}>
      {date ? <time dateTime={date.toISOString()}>{formatDate(date, withTime)}</time> : '—'}
    </Text>
  );
}
