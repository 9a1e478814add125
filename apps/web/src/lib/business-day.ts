import { useSession } from './session';

/** The browser's own time zone: the fallback before the server has said which zone the business keeps. */
const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

const formats = new Map<string, Intl.DateTimeFormat>();

/**
 * The calendar day (YYYY-MM-DD) of an instant in a time zone. The API counts
 * days (periods, reports, promised and due dates) in the installation's
 * business zone, so "today" must be that zone's, whatever the browser's is:
 * at 22:00 UTC it is already tomorrow in Nairobi.
 */
export function dayIn(zone: string | null | undefined, at: Date = new Date()): string {
  const name = zone || browserZone();
  let format = formats.get(name);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone: name, year: 'numeric', month: '2-digit', day: '2-digit' });
    formats.set(name, format);
  }
  const parts = format.formatToParts(at);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)!.value;
  return `${part('year')}-${part('month')}-${part('day')}`;
}

/**
 * Today in the business time zone the signed-in user's server keeps (GET /me's
 * time_zone), else in the browser's zone (a session stored before the server
 * said it).
 */
export function useBusinessToday(): string {
  const { user } = useSession();
  return dayIn(user?.time_zone);
}
