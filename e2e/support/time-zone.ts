/** The business time zone of the API under test (its TIME_ZONE), and of the browser that drives it. */
export const BUSINESS_TIME_ZONE = process.env.TIME_ZONE ?? 'Africa/Nairobi';
