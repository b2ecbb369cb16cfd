CREATE TABLE node_identity (
    slot       INT          NOT NULL PRIMARY KEY,
    node_id    VARCHAR(36)  NOT NULL,
    created_at TIMESTAMP(9) WITH TIME ZONE NOT NULL
);
