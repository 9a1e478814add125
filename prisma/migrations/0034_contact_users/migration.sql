-- Collection contacts by the user who logged them: deleting a user sets
-- their contacts' user_id to NULL (ON DELETE SET NULL), and without this
-- index PostgreSQL found those contacts by reading the whole table, every
-- organization's, once per deleted user. The last foreign key of the schema
-- without an index on its columns.

CREATE INDEX "collection_contacts_user_id_idx" ON "collection_contacts"("user_id");
