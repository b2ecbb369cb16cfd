package dev.berth.conformance;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

import com.hashicorp.nomad.apimodel.Job;
import com.hashicorp.nomad.apimodel.JobListStub;
import com.hashicorp.nomad.apimodel.Namespace;
import com.hashicorp.nomad.apimodel.Resources;
import com.hashicorp.nomad.apimodel.Task;
import com.hashicorp.nomad.apimodel.TaskGroup;
import com.hashicorp.nomad.javasdk.ErrorResponseException;
import com.hashicorp.nomad.javasdk.NomadApiClient;
import com.hashicorp.nomad.javasdk.QueryOptions;
import com.hashicorp.nomad.javasdk.ServerQueryResponse;
import com.hashicorp.nomad.javasdk.WriteOptions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * HashiCorp's Nomad Java SDK {@code NamespacesApi} against a real agent: register, info, list (all and by prefix) and
 * delete, Nomad's refusals (an invalid name, the default namespace), and a job registered into a namespace through the
 * {@code JobsApi}, read back there and listed with {@code namespace=*}.
 */
class NomadSdkNamespacesTest {

    NomadApiClient nomad;
    String ns;
    String jobId;

    @BeforeEach
    void connect() throws Exception {
        nomad = new NomadApiClient("http://127.0.0.1:" + SdkAgent.get().port);
        ns = "sdk-" + UUID.randomUUID().toString().substring(0, 8);
        jobId = "sdk-ns-" + UUID.randomUUID().toString().substring(0, 8);
    }

    @AfterEach
    void cleanUp() throws Exception {
        try {
            nomad.getJobsApi().deregister(jobId, true, new WriteOptions(null).setNamespace(ns));
        } catch (ErrorResponseException notThere) {
            // the test purged it, or never registered it
        }
        nomad.close();
    }

    @Test
    void aNamespaceIsRegisteredReadListedAndDeleted() throws Exception {
        nomad.getNamespacesApi().register(new Namespace().setName(ns).setDescription("from the SDK"));

        ServerQueryResponse<Namespace> info = nomad.getNamespacesApi().info(ns);
        assertThat(info.getValue().getName()).isEqualTo(ns);
        assertThat(info.getValue().getDescription()).isEqualTo("from the SDK");
        assertThat(info.getValue().getCreateIndex()).isEqualTo(info.getValue().getModifyIndex());
        assertThat(info.getIndex()).isEqualTo(info.getValue().getModifyIndex());

        assertThat(nomad.getNamespacesApi().list().getValue()).extracting(Namespace::getName).contains("default", ns);
        assertThat(nomad.getNamespacesApi().list(ns).getValue()).extracting(Namespace::getName).containsExactly(ns);

        nomad.getNamespacesApi().delete(ns);
        assertThat(nomad.getNamespacesApi().list(ns).getValue()).isEmpty();
        assertThatThrownBy(() -> nomad.getNamespacesApi().info(ns)).isInstanceOfSatisfying(ErrorResponseException.class,
                e -> assertThat(e.getServerErrorCode()).isEqualTo(404));
    }

    @Test
    void nomadsRefusalsReachTheSdk() {
        assertThatThrownBy(() -> nomad.getNamespacesApi().register(new Namespace().setName("not valid")))
                .isInstanceOfSatisfying(ErrorResponseException.class, e -> {
                    assertThat(e.getServerErrorCode()).isEqualTo(400);
                    assertThat(e.getServerErrorMessage()).contains("invalid name \"not valid\"");
                });
        assertThatThrownBy(() -> nomad.getNamespacesApi().delete("default"))
                .isInstanceOfSatisfying(ErrorResponseException.class, e -> {
                    assertThat(e.getServerErrorCode()).isEqualTo(400);
                    assertThat(e.getServerErrorMessage()).contains("can not delete default namespace");
                });
    }

    @Test
    void aJobRegisteredIntoANamespaceLivesThere() throws Exception {
        Job job = new Job().setId(jobId).setName(jobId).setType("batch").addDatacenters("dc1").setNamespace(ns)
                .addTaskGroups(new TaskGroup().setName("g").addTasks(new Task().setName("t").setDriver("raw_exec")
                        .addConfig("command", "/bin/true").setResources(new Resources().setCpu(20).setMemoryMb(16))));
        assertThatThrownBy(() -> nomad.getJobsApi().register(job))
                .isInstanceOfSatisfying(ErrorResponseException.class, e -> assertThat(e.getServerErrorMessage())
                        .contains("job \"" + jobId + "\" is in nonexistent namespace \"" + ns + "\""));

        nomad.getNamespacesApi().register(new Namespace().setName(ns));
        nomad.getJobsApi().register(job);

        Job read = nomad.getJobsApi().info(jobId, new QueryOptions<Job>().setNamespace(ns)).getValue();
        assertThat(read.getNamespace()).isEqualTo(ns);
        assertThatThrownBy(() -> nomad.getJobsApi().info(jobId)).isInstanceOfSatisfying(ErrorResponseException.class,
                e -> assertThat(e.getServerErrorCode()).isEqualTo(404));
        List<JobListStub> all = nomad.getJobsApi().list(jobId, new QueryOptions<List<JobListStub>>().setNamespace("*")).getValue();
        assertThat(all).extracting(JobListStub::getId).containsExactly(jobId);

        nomad.getJobsApi().deregister(jobId, true, new WriteOptions(null).setNamespace(ns));
        // the purged job's allocation may still be stopping: the namespace goes once nothing in it runs
        await().atMost(Duration.ofSeconds(60)).ignoreException(ErrorResponseException.class)
                .untilAsserted(() -> nomad.getNamespacesApi().delete(ns));
        assertThat(nomad.getNamespacesApi().list(ns).getValue()).isEmpty();
    }
}
