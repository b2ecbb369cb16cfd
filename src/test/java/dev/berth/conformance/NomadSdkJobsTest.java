package dev.berth.conformance;

import java.math.BigInteger;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import com.hashicorp.nomad.apimodel.AllocationListStub;
import com.hashicorp.nomad.apimodel.Deployment;
import com.hashicorp.nomad.apimodel.DispatchPayloadConfig;
import com.hashicorp.nomad.apimodel.Job;
import com.hashicorp.nomad.apimodel.JobDispatchResponse;
import com.hashicorp.nomad.apimodel.JobListStub;
import com.hashicorp.nomad.apimodel.JobPlanResponse;
import com.hashicorp.nomad.apimodel.JobRegisterResponse;
import com.hashicorp.nomad.apimodel.JobScaleStatusResponse;
import com.hashicorp.nomad.apimodel.ParameterizedJobConfig;
import com.hashicorp.nomad.apimodel.PeriodicConfig;
import com.hashicorp.nomad.apimodel.Resources;
import com.hashicorp.nomad.apimodel.RestartPolicy;
import com.hashicorp.nomad.apimodel.Task;
import com.hashicorp.nomad.apimodel.TaskGroup;
import com.hashicorp.nomad.apimodel.UpdateStrategy;
import com.hashicorp.nomad.javasdk.ErrorResponseException;
import com.hashicorp.nomad.javasdk.EvaluationResponse;
import com.hashicorp.nomad.javasdk.JobVersionsResponseData;
import com.hashicorp.nomad.javasdk.NomadApiClient;
import com.hashicorp.nomad.javasdk.ServerQueryResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.berth.support.Http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * HashiCorp's Nomad Java SDK {@code JobsApi} against a real agent, as a user would drive it: register, info, list,
 * versions, plan, allocations (with the evaluation that placed them), summary, scale status, scale group, deployments,
 * latest deployment, the deployments API (list, info, allocations, pause, allocation health, fail), deregister (stop and purge), dispatch of a parameterized job (payload file and
 * meta seen by the task) and periodic force; tasks are real raw_exec processes. Also the jobs directory: a jobspec file
 * dropped into {@code berth.jobs.dir} shows up through the SDK, a broken one is a node event and a metric.
 */
class NomadSdkJobsTest {

    int port;
    NomadApiClient nomad;
    String id;

    @BeforeEach
    void connect() throws Exception {
        port = SdkAgent.get().port;
        nomad = new NomadApiClient("http://127.0.0.1:" + port);
        id = "sdk-" + UUID.randomUUID().toString().substring(0, 8);
    }

    @AfterEach
    void cleanUp() throws Exception {
        for (JobListStub j : nomad.getJobsApi().list(id).getValue()) {
            nomad.getJobsApi().deregister(j.getId(), true);
        }
        nomad.close();
    }

    static Task task(String script) {
        return new Task().setName("main").setDriver("raw_exec")
                .addConfig("command", "/bin/sh").addConfig("args", List.of("-c", script))
                .setResources(new Resources().setCpu(20).setMemoryMb(16));
    }

    Job service(int count) {
        return new Job().setId(id).setName(id).setType("service").addDatacenters("dc1")
                .addTaskGroups(new TaskGroup().setName("web").setCount(count).addTasks(task("exec sleep 600")));
    }

    Job batch(Task task) {
        return new Job().setId(id).setName(id).setType("batch").addDatacenters("dc1")
                .addTaskGroups(new TaskGroup().setName("g").setCount(1)
                        .setRestartPolicy(new RestartPolicy().setAttempts(0).setMode("fail"))
                        .addTasks(task));
    }

    List<AllocationListStub> running(String jobId) throws Exception {
        return nomad.getJobsApi().allocations(jobId).getValue().stream()
                .filter(a -> "running".equals(a.getClientStatus()) && "run".equals(a.getDesiredStatus())).toList();
    }

    @Test
    void registerInfoListVersionsPlanAllocationsSummaryAndDeregister() throws Exception {
        EvaluationResponse reg = nomad.getJobsApi().register(service(1));
        assertThat(reg.getValue()).isNotEmpty();
        assertThat(nomad.getEvaluationsApi().info(reg.getValue()).getValue().getJobId()).isEqualTo(id);

        ServerQueryResponse<Job> info = nomad.getJobsApi().info(id);
        assertThat(info.getValue().getId()).isEqualTo(id);
        assertThat(info.getValue().getTaskGroups().get(0).getTasks().get(0).getKillTimeout()).isEqualTo(5_000_000_000L);
        assertThat(info.getIndex()).isPositive();
        assertThat(nomad.getJobsApi().list(id).getValue()).extracting(JobListStub::getId).containsExactly(id);

        await().atMost(Duration.ofSeconds(90)).until(() -> running(id).size() == 1);

        JobPlanResponse plan = nomad.getJobsApi().plan(service(3), true).getValue();
        assertThat(plan.getDiff().getType()).isEqualTo("Edited");
        assertThat(plan.getAnnotations().getDesiredTgUpdates().get("web").getPlace()).isEqualTo(BigInteger.TWO);

        nomad.getJobsApi().register(service(2));
        await().atMost(Duration.ofSeconds(90)).until(() -> running(id).size() == 2);
        JobVersionsResponseData versions = nomad.getJobsApi().versions(id).getValue();
        assertThat(versions.getVersions()).extracting(j -> j.getVersion().intValue()).containsExactly(1, 0);
        assertThat(nomad.getJobsApi().summary(id).getValue().getSummary().get("web").getRunning()).isEqualTo(2);

        EvaluationResponse stop = nomad.getJobsApi().deregister(id);
        assertThat(stop.getValue()).isNotEmpty();
        assertThat(nomad.getJobsApi().info(id).getValue().getStop()).isTrue();
        await().atMost(Duration.ofSeconds(90)).until(() -> running(id).isEmpty());
        nomad.getJobsApi().deregister(id, true);
        assertThatThrownBy(() -> nomad.getJobsApi().info(id)).isInstanceOf(ErrorResponseException.class)
                .satisfies(e -> assertThat(((ErrorResponseException) e).getServerErrorCode()).isEqualTo(404));
    }

    @Test
    void scaleStatusScaleGroupDeploymentsAndTheEvaluationThatPlacedAnAllocation() throws Exception {
        EvaluationResponse reg = nomad.getJobsApi().register(service(1));
        await().atMost(Duration.ofSeconds(90)).until(() -> running(id).size() == 1);
        AllocationListStub stub = running(id).get(0);
        assertThat(stub.getEvalId()).isEqualTo(reg.getValue());
        assertThat(stub.getCreateIndex()).isEqualTo(nomad.getAllocationsApi().info(stub.getId()).getValue().getCreateIndex());
        assertThat(nomad.getJobsApi().info(id).getValue().getUnmappedProperties()).containsEntry("NodePool", "default");

        JobScaleStatusResponse status = nomad.getJobsApi().scaleStatus(id).getValue();
        assertThat(status.getJobId()).isEqualTo(id);
        assertThat(status.getTaskGroups().get("web").getDesired()).isEqualTo(1);
        assertThat(status.getTaskGroups().get("web").getRunning()).isEqualTo(1);

        JobRegisterResponse scaled = nomad.getJobsApi().scaleGroup(id, "web", 2, "from the sdk", null, null).getValue();
        assertThat(scaled.getEvalId()).isNotEmpty();
        assertThat(scaled.getJobModifyIndex()).isPositive();
        await().atMost(Duration.ofSeconds(90)).until(() -> running(id).size() == 2);
        assertThat(nomad.getJobsApi().info(id).getValue().getTaskGroups().get(0).getCount()).isEqualTo(2);
        assertThat(nomad.getJobsApi().scaleStatus(id).getValue().getTaskGroups().get("web").getEvents().get(0).getMessage())
                .isEqualTo("from the sdk");

        // each version started a deployment (Nomad's default update strategy); the scale's is the latest
        assertThat(nomad.getJobsApi().deployments(id).getValue()).extracting(d -> d.getJobVersion().intValue())
                .containsExactly(1, 0);
        Deployment latest = nomad.getJobsApi().latestDeployment(id).getValue();
        assertThat(latest.getJobVersion().intValue()).isEqualTo(1);
        assertThat(latest.getTaskGroups().get("web").getDesiredTotal()).isEqualTo(2);
    }

    @Test
    void deploymentsApiReadsAndChangesADeployment() throws Exception {
        Job job = service(1);
        job.getTaskGroups().get(0).setUpdate(new UpdateStrategy().setMaxParallel(1).setMinHealthyTime(600_000_000_000L)
                .setHealthyDeadline(900_000_000_000L).setProgressDeadline(1_000_000_000_000L).setHealthCheck("task_states"));
        nomad.getJobsApi().register(job);
        await().atMost(Duration.ofSeconds(90)).until(() -> running(id).size() == 1);
        Deployment d = nomad.getJobsApi().latestDeployment(id).getValue();
        assertThat(nomad.getDeploymentsApi().list().getValue()).extracting(Deployment::getId).contains(d.getId());
        assertThat(nomad.getDeploymentsApi().list(d.getId().substring(0, 8)).getValue()).extracting(Deployment::getId)
                .containsExactly(d.getId());
        ServerQueryResponse<Deployment> info = nomad.getDeploymentsApi().info(d.getId());
        assertThat(info.getValue().getStatus()).isEqualTo("running");
        assertThat(info.getValue().getTaskGroups().get("web").getRequireProgressBy()).isNotNull();
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(nomad.getDeploymentsApi().allocations(d.getId())
                .getValue()).extracting(AllocationListStub::getId).containsExactly(running(id).get(0).getId()));

        assertThat(nomad.getDeploymentsApi().pause(d.getId(), true).getValue().getEvalId()).isNotEmpty();
        assertThat(nomad.getDeploymentsApi().info(d.getId()).getValue().getStatus()).isEqualTo("paused");
        nomad.getDeploymentsApi().pause(d.getId(), false);
        String alloc = running(id).get(0).getId();
        nomad.getDeploymentsApi().setAllocHealth(d.getId(), List.of(alloc), List.of());
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            assertThat(nomad.getDeploymentsApi().info(d.getId()).getValue().getStatus()).isEqualTo("successful");
            assertThat(nomad.getAllocationsApi().info(alloc).getValue().getDeploymentStatus().getHealthy()).isTrue();
        });
        assertThatThrownBy(() -> nomad.getDeploymentsApi().fail(d.getId())).isInstanceOf(ErrorResponseException.class)
                .hasMessageContaining("can't fail terminal deployment");
        assertThatThrownBy(() -> nomad.getDeploymentsApi().info("00000000-0000-0000-0000-000000000000"))
                .isInstanceOf(ErrorResponseException.class)
                .satisfies(e -> assertThat(((ErrorResponseException) e).getServerErrorCode()).isEqualTo(404));
    }

    @Test
    void dispatchHandsPayloadAndMetaToTheChild() throws Exception {
        Job job = batch(task("cat \"$NOMAD_TASK_DIR/input.txt\" > \"$NOMAD_TASK_DIR/seen\"; echo \" $NOMAD_META_customer\" >> \"$NOMAD_TASK_DIR/seen\"")
                .setDispatchPayload(new DispatchPayloadConfig().setFile("input.txt")));
        job.setParameterizedJob(new ParameterizedJobConfig().setPayload("required").addMetaRequired("customer"));
        nomad.getJobsApi().register(job);

        // Nomad's plain error text, as the SDK shows it
        assertThatThrownBy(() -> nomad.getJobsApi().dispatch(id, Map.of("customer", "acme")))
                .isInstanceOfSatisfying(ErrorResponseException.class, e -> {
                    assertThat(e.getServerErrorCode()).isEqualTo(400);
                    assertThat(e.getServerErrorMessage()).isEqualTo("Payload is not provided but required by parameterized job");
                });
        assertThatThrownBy(() -> nomad.getJobsApi().dispatch(id, Map.of("color", "red"), "x".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(ErrorResponseException.class)
                .hasMessageContaining("Dispatch request included unpermitted metadata keys: [color]");

        JobDispatchResponse d = nomad.getJobsApi().dispatch(id, Map.of("customer", "acme"), "from the sdk".getBytes(StandardCharsets.UTF_8))
                .getValue();
        String child = d.getDispatchedJobId();
        assertThat(child).startsWith(id + "/dispatch-");
        assertThat(d.getEvalId()).isNotEmpty();
        assertThat(d.getJobCreateIndex()).isPositive();
        Job childJob = nomad.getJobsApi().info(child).getValue();
        assertThat(childJob.getParentId()).isEqualTo(id);
        assertThat(childJob.getDispatched()).isTrue();
        assertThat(childJob.getMeta()).containsEntry("customer", "acme");

        AllocationListStub alloc = await().atMost(Duration.ofSeconds(90)).until(() -> nomad.getJobsApi().allocations(child).getValue()
                .stream().filter(a -> "complete".equals(a.getClientStatus())).findFirst().orElse(null), a -> a != null);
        HttpResponse<String> seen = Http.send(port, "GET", "/v1/client/fs/cat/" + alloc.getId() + "?path=main/local/seen", null);
        assertThat(seen.body()).isEqualTo("from the sdk acme\n");
        assertThat(nomad.getJobsApi().list(id).getValue()).extracting(JobListStub::getId).contains(id, child);
        assertThat(nomad.getJobsApi().list(id).getValue()).filteredOn(j -> j.getId().equals(id)).first()
                .satisfies(j -> assertThat(j.getParameterizedJob()).isTrue());
    }

    @Test
    void periodicForceLaunchesAChild() throws Exception {
        Job job = batch(task("exit 0"));
        job.setPeriodic(new PeriodicConfig().setSpec("0 0 1 1 *").setTimeZone("Europe/Paris"));
        nomad.getJobsApi().register(job);
        assertThat(nomad.getJobsApi().plan(job, false).getValue().getNextPeriodicLaunch()).isNotNull();

        EvaluationResponse forced = nomad.getJobsApi().periodicForce(id);
        assertThat(forced.getValue()).isNotEmpty();
        List<JobListStub> children = nomad.getJobsApi().list(id + "/periodic-").getValue();
        assertThat(children).hasSize(1);
        assertThat(children.get(0).getParentId()).isEqualTo(id);
        assertThat(children.get(0).getType()).isEqualTo("batch");
        String child = children.get(0).getId();
        await().atMost(Duration.ofSeconds(90)).until(() -> nomad.getJobsApi().allocations(child).getValue().stream()
                .anyMatch(a -> "complete".equals(a.getClientStatus())));
        // the child turns dead at the scheduler's next pass after its allocation completed
        await().atMost(Duration.ofSeconds(30)).until(() -> nomad.getJobsApi().summary(id).getValue().getChildren().getDead() == 1);
        assertThatThrownBy(() -> nomad.getJobsApi().periodicForce(child)).isInstanceOf(ErrorResponseException.class)
                .hasMessageContaining("can't force launch non-periodic job");
    }

    @Test
    void aJobspecFileInTheJobsDirectoryRunsAndABrokenOneIsReported() throws Exception {
        java.nio.file.Path dir = SdkAgent.get().jobsDir();
        Files.writeString(dir.resolve(id + ".nomad.hcl"), """
                job "%s" {
                  group "web" {
                    task "main" {
                      driver = "raw_exec"
                      config {
                        command = "/bin/sh"
                        args    = ["-c", "exec sleep 600"]
                      }
                      resources {
                        cpu    = 20
                        memory = 16
                      }
                    }
                  }
                }
                """.formatted(id));
        Files.writeString(dir.resolve(id + "-broken.hcl"), "job \"" + id + "-broken\" {\n  group \"g\" {\n    count = = 1\n  }\n}\n");
        // 404 until the directory's next scan registered the job
        await().atMost(Duration.ofSeconds(90)).ignoreExceptions().until(() -> running(id).size() == 1);
        assertThat(nomad.getJobsApi().list(id + "-broken").getValue()).isEmpty();
        String nodeId = nomad.getAgentApi().self().getValue().getStats().get("client").get("node_id");
        await().atMost(Duration.ofSeconds(30)).until(() -> nomad.getNodesApi().info(nodeId).getValue().getEvents().stream()
                .anyMatch(e -> "Jobs".equals(e.getSubsystem()) && e.getMessage().contains(id + "-broken.hcl")));
        HttpResponse<String> metrics = Http.send(port, "GET", "/v1/metrics?format=prometheus", null);
        assertThat(metrics.body()).containsPattern("(?m)^berth_jobs_dir_load_failures_total(\\{[^}]*\\})? [1-9]")
                .containsPattern("(?m)^berth_jobs_dir_broken_files(\\{[^}]*\\})? [1-9]");

        Files.delete(dir.resolve(id + "-broken.hcl"));
        Files.delete(dir.resolve(id + ".nomad.hcl"));
        await().atMost(Duration.ofSeconds(90)).until(() -> nomad.getJobsApi().info(id).getValue().getStop() && running(id).isEmpty());
    }
}
