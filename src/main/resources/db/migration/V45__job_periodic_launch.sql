-- The last launch of each periodic job (issue 13): a restart resumes the schedule from it and never launches a slot twice.
CREATE TABLE job_periodic_launch (
    id            VARCHAR(600) NOT NULL PRIMARY KEY,
    namespace     VARCHAR(255) NOT NULL,
    job_id        VARCHAR(255) NOT NULL,
    launch_millis BIGINT       NOT NULL
);
