-- Collections of the customers without an agent ('(no agent)'), in list
-- order. `agent IS NULL` fixes the agent column of the (organization, agent,
-- since, item) index, but PostgreSQL does not take the index's order as
-- (since, item) for it as it does for `agent = 'AGT-007'`: it walked every
-- account out of credit by `since` and filtered, 118 ms for a first page
-- when the newest ones all had agents (bench:agents). A partial index of the
-- accounts without an agent, in list order: 0.1 ms.
CREATE INDEX "open_accounts_no_agent" ON "open_accounts"("organization_id", "since", "item_id") WHERE "agent" IS NULL;
