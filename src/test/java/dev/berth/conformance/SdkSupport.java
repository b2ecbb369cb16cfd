package dev.berth.conformance;

import java.net.http.HttpResponse;
import java.util.UUID;

import dev.berth.support.Http;

import static org.assertj.core.api.Assertions.assertThat;

/** Submits allocations through Berth's own endpoint (Nomad has no client-side submission; the SDK has none either). */
final class SdkSupport {

    private SdkSupport() {
    }

    /** A service job whose raw_exec task prints {@code hello} and then waits. */
    static String rawExecAlloc(String id, String extraTopLevel, String extraJob) {
        return """
                {"ID":"%s","Name":"sdk.web[0]","JobID":"sdk","EvalID":"eval-1234","AllocModifyIndex":1,"DesiredStatus":"run",
                 "TaskGroup":"web"%s,
                 "Job":{"ID":"sdk","Name":"sdk","Type":"service"%s,"TaskGroups":[{"Name":"web","Count":1,
                   "RestartPolicy":{"Attempts":0,"Mode":"fail","Interval":60000000000,"Delay":1000000000},
                   "Tasks":[{"Name":"main","Driver":"raw_exec",
                     "Config":{"command":"/bin/sh","args":["-c","echo hello; echo oops >&2; exec sleep 300"]},
                     "Resources":{"CPU":20,"MemoryMB":32}}]}]}}"""
                .formatted(id, extraTopLevel, extraJob);
    }

    static String submit(int port, String body, String id) throws Exception {
        HttpResponse<String> r = Http.send(port, "PUT", "/v1/client/allocation/" + id, body);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return id;
    }

    static String newId() {
        return UUID.randomUUID().toString();
    }
}
