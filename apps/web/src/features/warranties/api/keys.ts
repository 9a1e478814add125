/** Query keys of the products' warranties (Settings → Warranties). */
export const warrantyKeys = {
  all: ['warranties'] as const,
  settings: () => [...warrantyKeys.all, 'settings'] as const,
};
