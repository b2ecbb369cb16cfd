-- Nomad Variables. The items are sealed (AES-256-GCM: nonce + ciphertext in data) under the node key, which lives
-- outside the database (<data-dir>/keys/variables.key); key_id names the key that sealed the row. Paths are at most
-- 128 characters (Nomad's rule). Lock TTL and delay in nanoseconds; times in Unix nanoseconds.
CREATE TABLE variable (
    namespace     VARCHAR(255) NOT NULL,
    path          VARCHAR(128) NOT NULL,
    lock_id       VARCHAR(64),
    lock_ttl      BIGINT,
    lock_delay    BIGINT,
    create_index  BIGINT       NOT NULL,
    create_time   BIGINT       NOT NULL,
    modify_index  BIGINT       NOT NULL,
    modify_time   BIGINT       NOT NULL,
    key_id        VARCHAR(64)  NOT NULL,
    data          BLOB         NOT NULL,
    PRIMARY KEY (namespace, path)
);

-- The variables' table index: the modify index of the last write or delete of any variable (one row).
CREATE TABLE variable_table_index (
    id           INT    NOT NULL PRIMARY KEY,
    modify_index BIGINT NOT NULL
);
