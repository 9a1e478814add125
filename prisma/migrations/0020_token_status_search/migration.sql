-- What Prisma's schema language cannot express; written by hand.

-- The token list's search also matches the labels of its Status column
-- (token-log-list.ts): 'Valid' and 'Invalid' are the tokens whose status is
-- not 'success', which are few (Kidogo itself only writes 'success'). This
-- partial index finds them for the search's bitmap of matches, where without
-- it every token of the organization was read: 3 s on 5,000,000 tokens for
-- a search of "invalid" that matched none. Its condition is on the column
-- itself, whose statistics tell the planner how few rows it holds.
CREATE INDEX "token_logs_not_success" ON "token_logs" ("organization_id", "created_at" DESC, "token_log_id" DESC) WHERE "status" <> 'success';
