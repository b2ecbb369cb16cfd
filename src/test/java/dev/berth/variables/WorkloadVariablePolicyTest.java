package dev.berth.variables;

import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/** Nomad's automatic workload access to variables, path by path, for task {@code web/app/server} in {@code default}. */
class WorkloadVariablePolicyTest {

    static final WorkloadIdentity SERVER = new WorkloadIdentity("default", "web", "app", "server");

    static Stream<Arguments> paths() {
        return Stream.of(
                arguments("default", "nomad/jobs", true),                 // shared by every job in the namespace
                arguments("default", "nomad/jobs/web", true),
                arguments("default", "nomad/jobs/web/app", true),
                arguments("default", "nomad/jobs/web/app/server", true),
                arguments("other", "nomad/jobs/web", false),              // another namespace
                arguments("other", "nomad/jobs", false),
                arguments("default", "nomad/jobs/web/app/server/extra", false), // nothing below the task's own path
                arguments("default", "nomad/jobs/web/app/sidecar", false),  // a sibling task
                arguments("default", "nomad/jobs/web/db", false),           // a sibling group
                arguments("default", "nomad/jobs/web/db/server", false),
                arguments("default", "nomad/jobs/webapp", false),           // a job whose name starts alike
                arguments("default", "nomad/jobs/api", false),              // another job
                arguments("default", "nomad/jobs/", false),
                arguments("default", "nomad", false),
                arguments("default", "web", false),
                arguments("default", "app/server", false),
                arguments("default", "nomad/jobs/web/app/server/", false));
    }

    @ParameterizedTest(name = "{0}/{1} readable: {2}")
    @MethodSource("paths")
    void aTaskReadsItsJobGroupAndTaskPathsAndTheSharedOneOnly(String namespace, String path, boolean allowed) {
        assertThat(WorkloadVariablePolicy.allows(SERVER, namespace, path)).isEqualTo(allowed);
    }

    @ParameterizedTest(name = "child {0} of {1} reads as {2}")
    @MethodSource("children")
    void aDispatchedOrPeriodicChildReadsAsItsParent(String jobId, String parentId, String readableJobPath) {
        WorkloadIdentity child = WorkloadIdentity.of("default", jobId, parentId, "app", "server");
        assertThat(WorkloadVariablePolicy.allows(child, "default", readableJobPath)).isTrue();
        assertThat(WorkloadVariablePolicy.allows(child, "default", "nomad/jobs/" + jobId)).isEqualTo(parentId == null || parentId.isEmpty());
    }

    static Stream<Arguments> children() {
        return Stream.of(
                arguments("report/dispatch-1700000000-abcd1234", "report", "nomad/jobs/report"),
                arguments("backup/periodic-1700000000", "backup", "nomad/jobs/backup/app/server"),
                arguments("web", null, "nomad/jobs/web/app"),
                arguments("web", "", "nomad/jobs/web"));
    }
}
