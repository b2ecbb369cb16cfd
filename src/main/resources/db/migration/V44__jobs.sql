-- Node-local jobs (issue 13). Every registered version of a job as Nomad's job JSON; the newest is the job.
CREATE TABLE job_version (
    id        VARCHAR(600) NOT NULL PRIMARY KEY,
    namespace VARCHAR(255) NOT NULL,
    job_id    VARCHAR(255) NOT NULL,
    version   BIGINT       NOT NULL,
    json      CLOB         NOT NULL
);
CREATE INDEX job_version_job ON job_version (namespace, job_id);

-- Evaluations in Nomad's shape.
CREATE TABLE job_evaluation (
    id        VARCHAR(64)  NOT NULL PRIMARY KEY,
    namespace VARCHAR(255) NOT NULL,
    job_id    VARCHAR(255) NOT NULL,
    json      CLOB         NOT NULL
);
CREATE INDEX job_evaluation_job ON job_evaluation (namespace, job_id);

-- What the local scheduler placed: alloc ID, job, group, index, job version, group fingerprint, reschedule history.
-- Written before the allocation is submitted, so a restart re-submits the same ID and never places twice.
CREATE TABLE job_placement (
    id        VARCHAR(64)  NOT NULL PRIMARY KEY,
    namespace VARCHAR(255) NOT NULL,
    job_id    VARCHAR(255) NOT NULL,
    json      CLOB         NOT NULL
);
