/** Every route of the app, listed once. Links and the router read from here. */
/** Cards of the Settings page that other pages link to, by their id. */
export const SETTINGS_CARDS = { agentCommissions: 'agent-commissions' } as const;

export const paths = {
  home: { path: '/', getHref: () => '/' },
  login: { path: '/login', getHref: () => '/login' },
  /** Signed out: ask for a link to choose a new password (from the sign-in page's Forgot password?). */
  forgotPassword: { path: '/forgot-password', getHref: () => '/forgot-password' },
  /** Signed out: the emailed link's page, where the new password is chosen. */
  resetPassword: { path: '/reset-password', getHref: (token: string) => `/reset-password?token=${encodeURIComponent(token)}` },
  /** A customer's own page, by the link staff sent them (no sign-in). */
  customerPage: { path: '/my/:token', getHref: (token: string) => `/my/${encodeURIComponent(token)}` },
  app: {
    dashboard: { path: '/dashboard', getHref: () => '/dashboard' },
    customers: { path: '/customers', getHref: () => '/customers' },
    payments: { path: '/payments', getHref: () => '/payments' },
    tokens: { path: '/tokens', getHref: () => '/tokens' },
    reports: { path: '/reports', getHref: () => '/reports' },
    /** `card`: the id of a card to open the page at (SETTINGS_CARDS). */
    settings: { path: '/settings', getHref: (card?: string) => (card ? `/settings#${card}` : '/settings') },
    onboarding: { path: '/onboarding', getHref: () => '/onboarding' },
    messages: { path: '/messages', getHref: () => '/messages' },
    /** One text to a group of customers, now or at a set time (owners and admins). */
    smsCampaigns: { path: '/sms-campaigns', getHref: () => '/sms-campaigns' },
    /** What each user holds of the cash they collected, and its handovers to the office. */
    /** `ledger`: whose ledger is open (a notification of cash held too long leads there). */
    cash: { path: '/cash', getHref: (ledger?: string) => (ledger ? `/cash?ledger=${encodeURIComponent(ledger)}` : '/cash') },
    /** Each sales agent's commission for a month and whether it was paid (owners and admins). `month`: "YYYY-MM", else the last month. */
    commissions: { path: '/commissions', getHref: (month?: string) => (month ? `/commissions?month=${encodeURIComponent(month)}` : '/commissions') },
    products: { path: '/products', getHref: () => '/products' },
    /** Where the devices not given out are kept: warehouses, shops, field agents. */
    stock: { path: '/stock', getHref: () => '/stock' },
    collections: { path: '/collections', getHref: () => '/collections' },
    tickets: { path: '/tickets', getHref: () => '/tickets' },
    invoices: { path: '/invoices', getHref: () => '/invoices' },
    auditLog: { path: '/activity-log', getHref: () => '/activity-log' },
    /** The user's own notifications and what they are told of: from the bell (See All), not the sidebar. */
    notifications: { path: '/notifications', getHref: ({ unread = false }: { unread?: boolean } = {}) => (unread ? '/notifications?unread=true' : '/notifications') },
    deviceActivity: {
      path: '/device-activity/:serialNumber',
      getHref: (serialNumber: string) => `/device-activity/${encodeURIComponent(serialNumber)}`,
    },
    customerPaymentDetails: {
      path: '/customer-payment-details/:customerId',
      getHref: (customerId: string | number) => `/customer-payment-details/${encodeURIComponent(String(customerId))}`,
    },
    superAdmin: { path: '/super-admin', getHref: () => '/super-admin' },
  },
} as const;
