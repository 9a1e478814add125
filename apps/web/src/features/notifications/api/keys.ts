/** Query keys of the notifications feature; mutations invalidate through these, never retyped arrays. */
export const notificationKeys = {
  all: ['notifications'] as const,
  /** The organization's notices from the platform. */
  list: () => [...notificationKeys.all, 'list'] as const,
  /** The signed-in user's own notifications ("For you"): the bell's and the page's, every filter of them. */
  mine: () => [...notificationKeys.all, 'mine'] as const,
  /** The bell's: the newest few. */
  latest: () => [...notificationKeys.mine(), 'latest'] as const,
  myList: (limit: number) => [...notificationKeys.latest(), { limit }] as const,
  /** The Notifications page's: pages of them, all or only the unread. */
  pages: () => [...notificationKeys.mine(), 'pages'] as const,
  myPages: (unread: boolean) => [...notificationKeys.pages(), { unread }] as const,
  /** The kinds the user has turned off. */
  settings: () => [...notificationKeys.all, 'settings'] as const,
};
