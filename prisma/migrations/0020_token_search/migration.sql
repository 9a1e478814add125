-- What Prisma's schema language cannot express; written by hand.

-- The token list's search also matches the labels of its Status column
-- (token-log-list.ts): 'Valid' and 'Invalid' are the tokens whose status is
-- not 'success', which are few (Kidogo itself only writes 'success'). This
-- partial index finds them for the search's bitmap of matches, where without
-- it every token of the organization was read: 3 s on 5,000,000 tokens for
-- a search of "invalid" that matched none. Its condition is on the column
-- itself, whose statistics tell the planner how few rows it holds.
CREATE INDEX "token_logs_not_success" ON "token_logs" ("organization_id", "created_at" DESC, "token_log_id" DESC) WHERE "status" <> 'success';

-- A token's number is searched by its 4-character pieces (token-log-list.ts),
-- as customers' phone and ID numbers are (0013_digit_search_grams): its
-- digit trigrams are each in tens of thousands of numbers, and the trigram
-- index took 9.8 ms to find one token's number among 5,000,000 tokens, the
-- pieces under 1 ms. The trigram index stays for terms of 3 characters.
CREATE INDEX "token_logs_token_value_grams" ON "token_logs" USING gin (search_grams("token_value"));
