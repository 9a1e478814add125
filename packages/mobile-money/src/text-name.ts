/** What every text Kidogo writes to a customer begins with. */
export const TEXT_PREFIX = 'Kidogo:';

/**
 * A text to a customer as the organization sends it: beginning with its own name ("Jua Solar: Hi Grace, ...") when
 * it set one in Settings, else as written. The database does the same to every text queued
 * (0089_text_name's trigger); the payment pipeline and the receiver do it first, so the reply they answer with is
 * the one stored and sent.
 */
export function namedText(text: string, name: string | null | undefined): string {
  return name && text.startsWith(TEXT_PREFIX) ? `${name}${text.slice(TEXT_PREFIX.length - 1)}` : text;
}
