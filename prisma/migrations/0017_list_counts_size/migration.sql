-- A kept search total now also keeps the size of the list it was counted in
-- (list_size: the organization's customers for a customer search), so that a
-- page of a search whose matches lie densely in the newest-first order can
-- walk that order with a prepared statement (see searchPage and
-- customer-list.ts). Null for rows counted before this migration or by a
-- list that gives no size: those pages are planned as before.
ALTER TABLE "list_counts" ADD COLUMN     "list_size" INTEGER;
