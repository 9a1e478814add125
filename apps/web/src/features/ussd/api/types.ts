/** What the Recent Sessions table asks GET /settings/ussd/sessions for: a page of `limit`, older than `before` when given. */
export interface UssdSessionsPageQuery {
  limit: number;
  /** The previous page's next_before. */
  before?: number;
}
