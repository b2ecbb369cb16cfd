-- Deployments of node-local jobs: Nomad's Deployment with its allocations' health and when each joined, so a restart
-- continues a deployment where it was.
CREATE TABLE job_deployment (
    id        VARCHAR(64)  NOT NULL PRIMARY KEY,
    namespace VARCHAR(255) NOT NULL,
    job_id    VARCHAR(255) NOT NULL,
    json      CLOB         NOT NULL
);
CREATE INDEX job_deployment_job ON job_deployment (namespace, job_id);
