/**
 * Outside links of the help menu. A self-hosting operator points them at their
 * own support desk with VITE_* variables at build time.
 */
const env = import.meta.env;

export const links = {
  /** The API's OpenAPI documentation, served by the API itself. */
  documentation: env.VITE_DOCS_URL || '/payg/docs',
  supportSite: env.VITE_SUPPORT_URL || '/#resources',
  contactEmail: env.VITE_CONTACT_EMAIL || 'support@kidogo.local',
} as const;
