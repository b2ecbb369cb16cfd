-- Issue 14: a destroy that was asked for but not finished (DELETE answers before the tasks are dead). The next agent start
-- finishes it: the tasks are killed, the alloc dir removed, the allocation tombstoned. Nothing is ever resurrected.
CREATE TABLE alloc_destroy_intent (
    id           VARCHAR(64)  NOT NULL PRIMARY KEY,
    requested_at TIMESTAMP(9) WITH TIME ZONE NOT NULL
);
