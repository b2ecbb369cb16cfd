-- The node's modify index (X-Nomad-Index): the high-water mark below which indexes may have been handed out, so that no
-- index is reused after a restart. One row, slot 1.
CREATE TABLE node_index (
    slot       INT    NOT NULL PRIMARY KEY,
    high_water BIGINT NOT NULL
);
