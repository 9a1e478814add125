export const invoiceKeys = {
  all: ['invoices'] as const,
  list: (admin: boolean) => [...invoiceKeys.all, 'list', admin ? 'admin' : 'own'] as const,
  stats: (admin: boolean) => [...invoiceKeys.all, 'stats', admin ? 'admin' : 'own'] as const,
  settings: (admin: boolean) => [...invoiceKeys.all, 'settings', admin ? 'admin' : 'own'] as const,
  organizations: () => [...invoiceKeys.all, 'organizations'] as const,
  html: (id: string) => [...invoiceKeys.all, 'html', id] as const,
};
