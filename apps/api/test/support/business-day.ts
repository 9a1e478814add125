import { Calendar, DEFAULT_TIME_ZONE } from '../../src/common/calendar.js';
import { isoDayOf } from '../../src/metrics/period.js';

const calendars = new Map<string, Calendar>();

/** "YYYY-MM-DD": the business day of an instant in `zone` (the API's default zone unless told), as the API counts it. */
export function businessDay(at: Date | number = Date.now(), zone = DEFAULT_TIME_ZONE): string {
  let calendar = calendars.get(zone);
  if (!calendar) calendars.set(zone, (calendar = new Calendar(zone)));
  return isoDayOf(calendar.dayOf(at));
}
