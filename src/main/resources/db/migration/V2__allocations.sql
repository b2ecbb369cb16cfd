-- Allocation state (alloc engineer). One row per allocation: its spec as JSON plus the columns we query.
CREATE TABLE alloc (
    id                 VARCHAR(64)  NOT NULL PRIMARY KEY,
    spec_json          CLOB         NOT NULL,
    modify_index       BIGINT       NOT NULL,
    desired_status     VARCHAR(16)  NOT NULL,
    client_status      VARCHAR(16)  NOT NULL,
    client_description VARCHAR(255) NOT NULL,
    updated_at         TIMESTAMP(9) WITH TIME ZONE NOT NULL
);

-- One row per task: its TaskState (events included) and its local state (driver handle, hook done-flags,
-- restart-tracker counters) as JSON.
CREATE TABLE alloc_task (
    id         VARCHAR(400) NOT NULL PRIMARY KEY,
    alloc_id   VARCHAR(64)  NOT NULL,
    task_name  VARCHAR(255) NOT NULL,
    state_json CLOB,
    local_json CLOB
);
CREATE INDEX alloc_task_alloc_id ON alloc_task (alloc_id);

-- Destroyed allocation IDs: a write for one of these is ignored, so a late write can never resurrect it.
CREATE TABLE alloc_tombstone (
    id         VARCHAR(64)  NOT NULL PRIMARY KEY,
    deleted_at TIMESTAMP(9) WITH TIME ZONE NOT NULL
);
