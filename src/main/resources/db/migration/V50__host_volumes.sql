-- Dynamic host volumes (Nomad 1.10's /v1/volume/host/*), offered again by the node after a restart. Constraints,
-- requested capabilities and plugin parameters are JSON text; times in Unix nanoseconds.
CREATE TABLE host_volume (
    id                  VARCHAR(36)   NOT NULL PRIMARY KEY,
    namespace           VARCHAR(255)  NOT NULL,
    name                VARCHAR(255)  NOT NULL,
    plugin_id           VARCHAR(255)  NOT NULL,
    node_pool           VARCHAR(255)  NOT NULL,
    node_id             VARCHAR(64)   NOT NULL,
    capacity_min_bytes  BIGINT        NOT NULL,
    capacity_max_bytes  BIGINT        NOT NULL,
    capacity_bytes      BIGINT        NOT NULL,
    host_path           VARCHAR(4096) NOT NULL,
    state               VARCHAR(32)   NOT NULL,
    constraints         CLOB          NOT NULL,
    capabilities        CLOB          NOT NULL,
    parameters          CLOB          NOT NULL,
    create_index        BIGINT        NOT NULL,
    create_time         BIGINT        NOT NULL,
    modify_index        BIGINT        NOT NULL,
    modify_time         BIGINT        NOT NULL
);
