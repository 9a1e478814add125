import type { OffsetPagination } from '@kidogo/contracts';

/** `{total, total_pages, limit, offset}` for limit/offset lists. */
export function offsetPagination(total: number, limit: number, offset: number): OffsetPagination {
  return { total, total_pages: limit > 0 ? Math.ceil(total / limit) : 0, limit, offset };
}

/** `{total, total_pages, page, limit}` for page/limit lists. */
export function pagePagination(total: number, page: number, limit: number) {
  return { total, total_pages: limit > 0 ? Math.ceil(total / limit) : 0, page, limit };
}

/** Escapes % and _ so a search term matches literally inside ILIKE '%…%'. */
export function likePattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
