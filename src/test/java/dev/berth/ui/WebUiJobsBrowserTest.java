package dev.berth.ui;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.awaitility.core.ConditionFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriverException;
import org.openqa.selenium.WebElement;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The jobs pages in a real browser (Debian's headless Chromium) against an agent with ACLs on: a job registered through
 * the job API with a real raw_exec task is listed, its page shows its versions, its allocations per version running and
 * its latest deployment, and it can be stopped with a write token (not with a read token).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "berth.data-dir=${java.io.tmpdir}/berth-ui-jobs-it-${random.uuid}",
        "berth.drivers.raw-exec.enabled=true",
        "berth.alloc.secrets-tmpfs=false",
        "berth.name=ui-jobs-node",
        "server.address=127.0.0.1",
        "berth.acl.enabled=true",
        "berth.acl.tokens[0].name=viewer",
        "berth.acl.tokens[0].secret=" + WebUiJobsBrowserTest.READ_TOKEN,
        "berth.acl.tokens[0].scope=read",
        "berth.acl.tokens[1].name=operator",
        "berth.acl.tokens[1].secret=" + WebUiJobsBrowserTest.WRITE_TOKEN,
        "berth.acl.tokens[1].scope=write"
})
class WebUiJobsBrowserTest {

    static final String READ_TOKEN = "ui-jobs-read-secret";
    static final String WRITE_TOKEN = "ui-jobs-write-secret";
    private static final String JOB = "ui-web";

    @LocalServerPort
    int port;
    @TempDir
    Path tmp;
    private Browser browser;
    private final HttpClient http = HttpClient.newHttpClient();

    @AfterEach
    void cleanUp() throws Exception {
        if (browser != null) {
            browser.close();
        }
        send("DELETE", "/v1/job/" + JOB + "?purge=true", null);
    }

    static String job(String marker) {
        return """
                {"Job": {"ID": "%s", "Name": "%s", "Type": "service", "Priority": 60, "Datacenters": ["dc1"],
                 "TaskGroups": [{"Name": "web", "Count": 1,
                   "Tasks": [{"Name": "server", "Driver": "raw_exec", "KillTimeout": 1000000000,
                     "Config": {"command": "/bin/sh", "args": ["-c", "echo serving $MARKER; exec sleep 600"]},
                     "Env": {"MARKER": "%s"}, "Resources": {"CPU": 20, "MemoryMB": 16}}]}]}}""".formatted(JOB, JOB, marker);
    }

    private HttpResponse<String> send(String method, String path, String body) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create(url(path))).header("X-Nomad-Token", WRITE_TOKEN)
                .header("Content-Type", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private void register(String marker) throws Exception {
        HttpResponse<String> r = send("PUT", "/v1/jobs", job(marker));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    }

    private String url(String path) {
        return "http://127.0.0.1:" + port + path;
    }

    private WebElement find(String css) {
        return browser.find(css);
    }

    private String text(String css) {
        return browser.text(css);
    }

    private void giveToken(String token) {
        browser.giveToken(token, eventually());
    }

    @Test
    void jobPagesLoadWithoutATokenButTheirDataDoesNot() throws Exception {
        HttpClient anonymous = HttpClient.newHttpClient();
        for (String page : List.of("/ui/jobs", "/ui/jobs/" + JOB, "/ui/jobs.js", "/ui/job.js")) {
            HttpResponse<String> r = anonymous.send(HttpRequest.newBuilder(URI.create(url(page))).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).as(page).isEqualTo(200);
        }
        assertThat(anonymous.send(HttpRequest.newBuilder(URI.create(url("/v1/jobs"))).build(), HttpResponse.BodyHandlers.ofString())
                .statusCode()).isEqualTo(403);
    }

    @Test
    void jobsPageListsTheJobLiveAndItsPageShowsVersionsAllocationsAndStops() throws Exception {
        browser = new Browser(Files.createDirectories(tmp.resolve("chromium-profile")));
        browser.driver.get(url("/ui/"));
        giveToken(READ_TOKEN);
        // the header leads to the jobs; none yet
        browser.driver.findElement(By.linkText("Jobs")).click();
        eventually().untilAsserted(() -> assertThat(text("#jobs")).contains("No jobs"));

        // a job registered through the API appears without a reload, its group running 1 of 1
        register("one");
        dev.berth.support.ThreadDumps.showingOnTimeout("WebUiJobsBrowserTest", "berth-scheduler", () ->
                eventually().untilAsserted(() -> {
                    String row = text("tr[data-job='" + JOB + "']");
                    assertThat(row).contains(JOB).contains("service").contains("running").contains("60");
                    assertThat(text("tr[data-job='" + JOB + "'] [data-group=web] .group-count")).isEqualTo("1/1");
                }));
        browser.screenshot("jobs");

        browser.driver.findElement(By.linkText(JOB)).click();
        eventually().untilAsserted(() -> {
            assertThat(browser.driver.getCurrentUrl()).endsWith("/ui/jobs/" + JOB + "?namespace=default");
            assertThat(text("#job-title")).isEqualTo("Job " + JOB);
            assertThat(text("#job-facts")).contains("service").contains("running");
            assertThat(text("#versions tr[data-version='0']")).startsWith("0");
            assertThat(text("section[data-version='0'] h3")).isEqualTo("Version 0 (current)");
            assertThat(text("section[data-version='0'] tbody")).contains(JOB + ".web[0]").contains("server running");
        });

        // an update that changes the task: a new version, its allocation replaces the old one, grouped by version
        register("two");
        eventually().untilAsserted(() -> {
            assertThat(text("#versions tr[data-version='1']")).startsWith("1");
            assertThat(text("section[data-version='1'] h3")).isEqualTo("Version 1 (current)");
            assertThat(text("section[data-version='1'] tbody")).contains("server running");
            assertThat(text("section[data-version='0'] tbody")).contains("stop");
            // the update's deployment: its version, status and the group's progress
            assertThat(text("#deployment [data-deployment]")).contains("version 1");
            assertThat(text("#deployment tr[data-deployment-group=web]")).startsWith("web 1 1");
        });
        browser.driver.executeScript("window.scrollTo(0, 0)");
        browser.screenshot("job");

        // the API says the same: each allocation with the job version it was placed from
        String allocs = send("GET", "/v1/job/" + JOB + "/allocations", null).body();
        assertThat(allocs).contains("\"JobVersion\":1").contains("\"JobVersion\":0").contains("\"TaskStates\"");

        // the allocation's link opens its page
        String allocId = find("section[data-version='1'] tr[data-alloc]").getAttribute("data-alloc");
        assertThat(find("section[data-version='1'] tr[data-alloc] a").getAttribute("href")).endsWith("/ui/allocations/" + allocId);

        // a read token may look but not stop: the agent's refusal is shown and the job keeps running
        find("#stop-button").click();
        eventually().until(() -> {
            browser.driver.switchTo().alert().accept();
            return true;
        });
        eventually().untilAsserted(() -> assertThat(text("#action-result")).contains("Stop refused").contains("write scope"));
        assertThat(text("#job-facts")).doesNotContain("stopped");

        // with a write token the job stops and its allocation completes
        find("#token-button").click();
        giveToken(WRITE_TOKEN);
        find("#stop-button").click();
        eventually().until(() -> {
            browser.driver.switchTo().alert().accept();
            return true;
        });
        eventually().untilAsserted(() -> {
            assertThat(text("#action-result")).contains("Stop: done.");
            assertThat(text("#job-facts")).contains("stopped");
            assertThat(text("section[data-alloc], section[data-version] tbody")).isNotEmpty();
            assertThat(text("#allocs")).doesNotContain("server running").contains("complete");
        });
        browser.screenshot("job-stopped");
    }

    /** Waits for what a person would wait for; an element not on the page yet is just not there yet. */
    private static ConditionFactory eventually() {
        return await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250))
                .ignoreExceptionsInstanceOf(WebDriverException.class);
    }
}
