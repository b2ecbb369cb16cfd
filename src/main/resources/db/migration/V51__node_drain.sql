-- The node's scheduling eligibility and drain (with the allocations the drain stopped), so both survive a restart.
CREATE TABLE node_drain (
    id   VARCHAR(64) NOT NULL PRIMARY KEY,
    json CLOB        NOT NULL
);
