import { likePattern } from '../common/pagination.js';
import { Prisma } from '../generated/prisma/client.js';

/**
 * `(col ILIKE '%term%' OR ...)` for the list searches, with % and _ taken
 * literally. The trigram indexes serve terms of 3 characters or more. A
 * shorter term has no trigram, and PostgreSQL would then read the whole
 * trigram index (every organization's rows) to recheck each one: measured
 * at 2.5 s on 1,300,000 customers for "zz". Written as `(col || '')` the
 * condition cannot use that index, so a short term scans only the
 * organization's own rows (0.4 s for 1,000,000 customers).
 *
 * Column names come from the callers' fixed lists, never from input.
 */
export function textMatch(columns: readonly string[], term: string, exact = false): Prisma.Sql {
  const pattern = exact ? likePattern(term).slice(1, -1) : likePattern(term);
  const short = [...term].length < 3;
  const parts = columns.map((c) =>
    short ? Prisma.sql`(${Prisma.raw(`"${c}"`)} || '') ILIKE ${pattern}` : Prisma.sql`${Prisma.raw(`"${c}"`)} ILIKE ${pattern}`,
  );
  return Prisma.sql`(${Prisma.join(parts, ' OR ')})`;
}

/**
 * `column ILIKE '%term%'` as PostgreSQL computes it on UTF-8 text,
 * `lower(column) LIKE lower('%term%')`, for a column whose lower() is
 * indexed (migration 0016_email_walk): a trigram index of lower(column) for
 * rare terms, and a newest-first index holding lower(column) that a list can
 * walk without reading the rows. Short terms are kept off the trigram index
 * as in textMatch (the `|| ''` still reads lower(column) from the walk).
 */
export function loweredMatch(column: string, term: string): Prisma.Sql {
  const folded = Prisma.raw(`lower("${column}")`);
  const value = [...term].length < 3 ? Prisma.sql`(${folded} || '')` : folded;
  return Prisma.sql`${value} LIKE lower(${likePattern(term)})`;
}

/** The length of the pieces search_grams indexes (migration 0013_digit_search_grams). */
export const GRAM_LENGTH = 4;

/**
 * `column ILIKE '%term%'` for a column with a search_grams index: the index
 * finds the values containing every 4-character piece of the term, and the
 * ILIKE (written so that it cannot use the column's trigram index, whose
 * digit trigrams would only add work) keeps those that contain the term
 * itself. Only for terms of GRAM_LENGTH characters or more, which have a
 * piece; a shorter term would match every value through the index.
 */
export function gramsMatch(column: string, term: string): Prisma.Sql {
  const c = Prisma.raw(`"${column}"`);
  return Prisma.sql`(search_grams(${c}) @> ${termGrams(term)} AND (${c} || '') ILIKE ${likePattern(term)})`;
}

/**
 * The term's pieces, as search_grams(term) would give them. A term of ASCII
 * digits and punctuation (a phone or ID number) has no case to fold, so
 * its pieces are sent as an array: calling the SQL function to plan the
 * statement costs more PostgreSQL time (0.42 against 0.34 ms per search)
 * than the search itself. A term with letters is folded by PostgreSQL's
 * own lower(), whatever the database's locale makes of them.
 */
function termGrams(term: string): Prisma.Sql {
  if (/[^\x20-\x40\x5b-\x60\x7b-\x7e]/.test(term)) return Prisma.sql`search_grams(${term}::text)`;
  const pieces = new Set<string>();
  for (let i = 0; i + GRAM_LENGTH <= term.length; i++) pieces.add(term.slice(i, i + GRAM_LENGTH));
  return Prisma.sql`${[...pieces]}::text[]`;
}
