-- Which task holds which device instance. The instance ID is the key: one holder per instance, enforced by the DB.
CREATE TABLE device_reservation (
    instance_id  VARCHAR(255) NOT NULL PRIMARY KEY,
    alloc_id     VARCHAR(64)  NOT NULL,
    job          VARCHAR(255) NOT NULL,
    task         VARCHAR(255) NOT NULL,
    vendor       VARCHAR(255) NOT NULL,
    device_type  VARCHAR(255) NOT NULL,
    device_name  VARCHAR(255) NOT NULL,
    created_at   TIMESTAMP(9) WITH TIME ZONE NOT NULL
);
CREATE INDEX device_reservation_alloc ON device_reservation (alloc_id);
