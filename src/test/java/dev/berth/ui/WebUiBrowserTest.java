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
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebDriverException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.Select;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The web UI in a real browser (Debian's headless Chromium) against a running agent with ACLs on and real raw_exec
 * tasks: what a person sees and can do.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "berth.data-dir=${java.io.tmpdir}/berth-ui-it-${random.uuid}",
        "berth.drivers.raw-exec.enabled=true",
        "berth.alloc.secrets-tmpfs=false",
        "berth.name=ui-test-node",
        "server.address=127.0.0.1",
        "berth.acl.enabled=true",
        "berth.acl.tokens[0].name=viewer",
        "berth.acl.tokens[0].secret=" + WebUiBrowserTest.READ_TOKEN,
        "berth.acl.tokens[0].scope=read",
        "berth.acl.tokens[1].name=operator",
        "berth.acl.tokens[1].secret=" + WebUiBrowserTest.WRITE_TOKEN,
        "berth.acl.tokens[1].scope=write"
})
class WebUiBrowserTest {

    static final String READ_TOKEN = "ui-read-secret";
    static final String WRITE_TOKEN = "ui-write-secret";
    private static final Duration PATIENCE = Duration.ofSeconds(60);

    @LocalServerPort
    int port;
    @TempDir
    Path tmp;
    private Browser browser;
    private final HttpClient http = HttpClient.newHttpClient();
    private final String ticker = "0a1e0000-0000-4000-8000-000000000001";
    private final String hog = "0a1e0000-0000-4000-8000-000000000002";

    @BeforeAll
    void submitAllocations() throws Exception {
        put(ticker, alloc(ticker, "ticker", "api", "i=0; while :; do i=$((i+1)); echo tick $i; echo warn $i >&2; sleep 0.3; done", 64));
        // holds ~40 MB in a shell variable: the allocation that uses the most memory
        put(hog, alloc(hog, "hog", "cache", "x=$(head -c 40000000 /dev/zero | tr '\\\\0' a); while :; do sleep 1; done", 128));
    }

    @AfterAll
    void destroyAllocations() throws Exception {
        for (String id : List.of(ticker, hog)) {
            send("DELETE", "/v1/client/allocation/" + id, null);
        }
    }

    @BeforeEach
    void openBrowser() throws IOException {
        browser = new Browser(Files.createDirectories(tmp.resolve("chromium-profile")));
    }

    @AfterEach
    void closeBrowser() {
        if (browser != null) {
            browser.close();
        }
    }

    static String alloc(String id, String job, String task, String script, int memoryMb) {
        return """
                {"ID": "%s", "Name": "%s.web[0]", "JobID": "%s", "TaskGroup": "web", "AllocModifyIndex": 1,
                 "Job": {"ID": "%s", "Name": "%s", "Type": "service", "TaskGroups": [{"Name": "web",
                   "RestartPolicy": {"Attempts": 3, "Interval": 600000000000, "Delay": 1000000000, "Mode": "delay"},
                   "Tasks": [{"Name": "%s", "Driver": "raw_exec", "KillTimeout": 1000000000,
                     "Config": {"command": "/bin/sh", "args": ["-c", "%s"]},
                     "Resources": {"CPU": 100, "MemoryMB": %d}}]}]}}""".formatted(id, job, job, job, job, task, script, memoryMb);
    }

    private void put(String id, String body) throws Exception {
        HttpResponse<String> r = send("PUT", "/v1/client/allocation/" + id, body);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    }

    private HttpResponse<String> send(String method, String path, String body) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).header("X-Nomad-Token", WRITE_TOKEN)
                .header("Content-Type", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
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
    void pagesLoadWithoutATokenButTheirDataDoesNot() throws Exception {
        HttpClient anonymous = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();
        HttpResponse<String> root = anonymous.send(HttpRequest.newBuilder(URI.create(url("/ui"))).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(root.statusCode()).isEqualTo(302);
        assertThat(root.headers().firstValue("Location")).hasValueSatisfying((l) -> assertThat(l).endsWith("/ui/"));
        for (String page : List.of("/ui/", "/ui/allocations/" + ticker, "/ui/berth.js", "/ui/vendor/uplot/uPlot.iife.min.js")) {
            HttpResponse<String> r = anonymous.send(HttpRequest.newBuilder(URI.create(url(page))).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).as(page).isEqualTo(200);
            assertThat(r.body()).as(page).doesNotContain(ticker.substring(9)); // no data in the pages themselves
        }
        assertThat(anonymous.send(HttpRequest.newBuilder(URI.create(url("/ui/nope.js"))).build(), HttpResponse.BodyHandlers.ofString())
                .statusCode()).isEqualTo(404);
        assertThat(anonymous.send(HttpRequest.newBuilder(URI.create(url("/v1/client/allocations"))).build(), HttpResponse.BodyHandlers.ofString())
                .statusCode()).isEqualTo(403);
    }

    @Test
    void nodePageAsksForATokenThenShowsTheNodeAndItsAllocationsLive() throws Exception {
        browser.driver.get(url("/ui/"));
        // ACLs are on and this browser has no token: the page asks for one
        eventually().until(() -> find("#token-dialog").isDisplayed());
        assertThat(text("#token-reason")).contains("Permission denied");
        giveToken(READ_TOKEN);

        eventually().untilAsserted(() -> {
            assertThat(text("#node-title")).isEqualTo("Node ui-test-node");
            assertThat(text("#node-facts")).contains("ready").contains("dc1");
            assertThat(text("#drivers")).contains("raw_exec").contains("healthy");
            assertThat(text("#allocs")).contains("ticker").contains("hog").contains("api").contains("cache");
            assertThat(text("#host-gauges")).contains("CPU").contains("Memory");
        });
        // sort by memory with the keyboard: the hog comes first, with its memory shown
        find("th[data-sort=memory] button").sendKeys(Keys.ENTER);
        eventually().untilAsserted(() -> {
            assertThat(find("#allocs tr:first-child").getAttribute("data-alloc")).isEqualTo(hog);
            assertThat(text("#allocs tr:first-child .alloc-memory")).contains("MiB");
        });
        assertThat(find("th[data-sort=memory]").getAttribute("aria-sort")).isEqualTo("descending");
        browser.driver.executeScript("window.scrollTo(0, 0)");
        browser.screenshot("node");

        // a status change arrives without reloading the page
        String shortLived = "0a1e0000-0000-4000-8000-000000000003";
        // the task ends when the test says so, not after a fixed time a busy machine could let pass unseen
        Path go = tmp.resolve("go-" + shortLived);
        put(shortLived, alloc(shortLived, "batch", "once", "echo started; while [ ! -e '" + go + "' ]; do sleep 0.1; done; exit 0", 32)
                .replace("\"service\"", "\"batch\""));
        eventually().untilAsserted(() -> assertThat(find("tr[data-alloc='" + shortLived + "']").getText()).contains("running"));
        Files.createFile(go);
        eventually().untilAsserted(() -> assertThat(find("tr[data-alloc='" + shortLived + "']").getText()).contains("complete"));
        send("DELETE", "/v1/client/allocation/" + shortLived, null);
    }

    @Test
    void allocationPageShowsChartsLogsFilesAndRestartsWithAWriteToken() throws Exception {
        browser.driver.get(url("/ui/allocations/" + ticker));
        giveToken(READ_TOKEN);

        eventually().untilAsserted(() -> {
            assertThat(text("#alloc-title")).isEqualTo("Allocation ticker.web[0]");
            assertThat(text("[data-task=api] .task-state")).isEqualTo("running");
            assertThat(text("[data-task=api] .events")).contains("Started");
        });
        // the CPU and memory charts fill with samples from the stats endpoint
        eventually().untilAsserted(() -> {
            assertThat(Integer.parseInt(find("[data-task=api] .cpu-chart").getAttribute("data-points"))).isGreaterThanOrEqualTo(3);
            assertThat(find("[data-task=api] .mem-chart canvas").isDisplayed()).isTrue();
            assertThat(text("[data-task=api] .mem-chart figcaption")).contains("RSS");
        });
        // log lines arrive while following
        eventually().untilAsserted(() -> assertThat(text("#log")).contains("tick"));
        int before = lastTick(text("#log"));
        eventually().untilAsserted(() -> assertThat(lastTick(text("#log"))).isGreaterThan(before + 2));
        browser.driver.executeScript("window.scrollTo(0, 0)");
        browser.screenshot("allocation");
        new Select(find("#log-type")).selectByValue("stderr");
        eventually().untilAsserted(() -> assertThat(text("#log")).contains("warn").doesNotContain("tick"));
        // the file browser lists the alloc dir and opens a task's log file
        eventually().untilAsserted(() -> assertThat(text("#files")).contains("alloc/").contains("api/"));
        browser.driver.findElement(By.linkText("alloc/")).click();
        eventually().untilAsserted(() -> assertThat(text("#files")).contains("logs/"));
        browser.driver.findElement(By.linkText("logs/")).click();
        eventually().untilAsserted(() -> assertThat(text("#files")).contains("api.stdout.0"));
        browser.driver.findElement(By.linkText("api.stdout.0")).click();
        eventually().untilAsserted(() -> assertThat(text("#file-view")).contains("tick 1"));
        browser.screenshot("allocation-files");

        // a read token may look but not act: the agent's refusal is shown
        find("#restart-button").click();
        eventually().untilAsserted(() -> assertThat(text("#action-result")).contains("Restart refused").contains("Permission denied"));
        assertThat(text("[data-task=api] .events")).doesNotContain("Restart Signaled");

        // with a write token the restart happens and its events appear
        find("#token-button").click();
        giveToken(WRITE_TOKEN);
        find("#restart-button").click();
        eventually().untilAsserted(() -> {
            assertThat(text("#action-result")).contains("Restart: done.");
            assertThat(text("[data-task=api] .events")).contains("Restart Signaled");
            assertThat(text("[data-task=api] .task-state")).isEqualTo("running");
        });
        browser.screenshot("allocation-restarted");

        // stop, after confirming: the tasks are killed and the allocation completes
        find("#stop-button").click();
        eventually().until(() -> {
            browser.driver.switchTo().alert().accept();
            return true;
        });
        eventually().untilAsserted(() -> {
            assertThat(text("#action-result")).contains("Stop: done.");
            assertThat(text("#alloc-facts")).contains("complete");
            assertThat(text("[data-task=api] .task-state")).isEqualTo("dead");
        });
    }

    /** Waits for what a person would wait for; an element not on the page yet is just not there yet. */
    private static ConditionFactory eventually() {
        return await().atMost(PATIENCE).pollInterval(Duration.ofMillis(250)).ignoreExceptionsInstanceOf(WebDriverException.class);
    }

    private static int lastTick(String log) {
        int last = 0;
        for (String line : log.split("\n")) {
            if (line.startsWith("tick ")) {
                last = Math.max(last, Integer.parseInt(line.substring(5).strip()));
            }
        }
        return last;
    }
}
