-- What Prisma's schema language cannot express; written by hand.

-- Phone and ID numbers are searched by a few of their digits ('%12345%').
-- Their trigram indexes answer such a term slowly: there are only a thousand
-- digit trigrams, each in thousands of numbers (and the ID numbers' leading
-- digits in a tenth of them), so the index reads and intersects long posting
-- lists to find a few dozen customers (0.5-0.7 ms of PostgreSQL on a million
-- customers). A number's distinct 4-character pieces are ten times rarer
-- each: the same search reads a few hundred entries (0.1 ms).
--
-- search_grams(value): the distinct 4-character substrings of lower(value),
-- the same case folding ILIKE uses, so that every value matching
-- ILIKE '%term%' contains every 4-character piece of the term: the index
-- finds the candidates and ILIKE decides. Terms under 4 characters keep
-- using the trigram indexes (customer-list.ts).
CREATE FUNCTION search_grams(value text) RETURNS text[]
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $$
    SELECT ARRAY(SELECT DISTINCT substr(v, i, 4) FROM (SELECT lower(value) AS v) l, generate_series(1, char_length(v) - 3) AS i)
  $$;

CREATE INDEX "customers_phone_contact_grams" ON "customers" USING gin (search_grams("phone_contact"));
CREATE INDEX "customers_id_number_grams" ON "customers" USING gin (search_grams("id_number"));
