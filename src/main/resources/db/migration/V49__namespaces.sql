-- Nomad namespaces (community edition): a name, a description, meta (a JSON object of strings, or NULL) and the
-- capabilities (Nomad's JSON: enabled and disabled task drivers and network modes, or NULL); the jobs,
-- allocations, deployments, services and variables that name a namespace live in it. "default" always exists.
CREATE TABLE namespace (
    name         VARCHAR(128) NOT NULL PRIMARY KEY,
    description  VARCHAR(256) NOT NULL,
    meta         CLOB,
    capabilities CLOB,
    create_index BIGINT       NOT NULL,
    modify_index BIGINT       NOT NULL
);

INSERT INTO namespace (name, description, meta, capabilities, create_index, modify_index)
VALUES ('default', 'Default shared namespace', NULL, NULL, 1, 1);

-- The namespaces' table index: the modify index of the last upsert or delete of any namespace (one row).
CREATE TABLE namespace_table_index (
    id           INT    NOT NULL PRIMARY KEY,
    modify_index BIGINT NOT NULL
);

INSERT INTO namespace_table_index (id, modify_index) VALUES (1, 1);
