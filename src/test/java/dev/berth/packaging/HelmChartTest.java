package dev.berth.packaging;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Base64;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

import com.marcnuri.helm.Helm;
import com.marcnuri.helm.LintResult;
import com.marcnuri.helm.TemplateCommand;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.Yaml;

import org.springframework.boot.context.properties.bind.BindHandler;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.handler.NoUnboundElementsBindHandler;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.core.env.PropertySource;
import org.springframework.core.io.ByteArrayResource;

import dev.berth.config.BerthProperties;
import dev.berth.config.MetricsNaming;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/** Lints and renders helm/berth with the embedded Helm (helm-java) and checks the Kubernetes objects it produces. */
class HelmChartTest {

    private static final Path CHART = Path.of("helm/berth");

    private static List<Map<String, Object>> render(UnaryOperator<TemplateCommand> options) {
        return render(CHART, options);
    }

    private static List<Map<String, Object>> render(Path chart, UnaryOperator<TemplateCommand> options) {
        String rendered = options.apply(new Helm(chart).template().withName("berth").withNamespace("agents")).call();
        List<Map<String, Object>> objects = new ArrayList<>();
        for (Object document : new Yaml().loadAll(rendered)) {
            if (document != null) {
                objects.add(cast(document));
            }
        }
        return objects;
    }

    @SuppressWarnings("unchecked")
    private static <T> T cast(Object value) {
        return (T) value;
    }

    /** Follows a path of map keys and list indexes. */
    private static <T> T at(Object root, Object... path) {
        Object current = root;
        for (Object step : path) {
            current = step instanceof Integer index ? ((List<?>) current).get(index) : ((Map<?, ?>) current).get(step);
            Objects.requireNonNull(current, () -> "missing " + step + " in path " + List.of(path));
        }
        return cast(current);
    }

    private static Map<String, Object> only(List<Map<String, Object>> objects, String kind) {
        List<Map<String, Object>> matching = objects.stream().filter(o -> kind.equals(o.get("kind"))).toList();
        assertThat(matching).as(kind).hasSize(1);
        return matching.getFirst();
    }

    private static Map<String, Object> container(List<Map<String, Object>> objects) {
        return at(only(objects, "DaemonSet"), "spec", "template", "spec", "containers", 0);
    }

    private static Map<String, Object> env(Map<String, Object> container, String name) {
        List<Map<String, Object>> env = at(container, "env");
        return env.stream().filter(e -> name.equals(e.get("name"))).findFirst()
                .orElseThrow(() -> new AssertionError("no env " + name));
    }

    private static void copyChart(Path target) throws IOException {
        try (Stream<Path> files = Files.walk(CHART)) {
            for (Path source : files.toList()) {
                Path destination = target.resolve(CHART.relativize(source).toString());
                if (Files.isDirectory(source)) {
                    Files.createDirectories(destination);
                } else {
                    Files.copy(source, destination, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }

    @Test
    void lintPasses() {
        LintResult result = new Helm(CHART).lint().strict().call();

        assertThat(result.isFailed()).as(String.join("\n", result.getMessages())).isFalse();
    }

    @Test
    void defaultsRenderADaemonSetWithProbesHostMountsAndTheTokenSecret(@TempDir Path copy) throws IOException {
        // helm-java's template leaves hooks out of its output, and the generated token Secret is a pre-install
        // hook (so upgrades never re-randomise it). Render a copy whose Secret is an ordinary object to see it.
        String secretTemplate = Files.readString(CHART.resolve("templates/secret.yaml"));
        assertThat(secretTemplate).contains("helm.sh/hook: pre-install");
        copyChart(copy);
        Files.writeString(copy.resolve("templates/secret.yaml"), secretTemplate.replace("helm.sh/hook: pre-install",
                "test/was-hook: pre-install"));
        assertThat(render(t -> t)).extracting(o -> o.get("kind"))
                .containsExactlyInAnyOrder("ServiceAccount", "ConfigMap", "Service", "DaemonSet");

        List<Map<String, Object>> objects = render(copy, t -> t);

        assertThat(objects).extracting(o -> o.get("kind"))
                .containsExactlyInAnyOrder("ServiceAccount", "Secret", "ConfigMap", "Service", "DaemonSet");
        Map<String, Object> pod = at(only(objects, "DaemonSet"), "spec", "template", "spec");
        assertThat(pod.get("hostPID")).isEqualTo(true);
        assertThat(pod.get("serviceAccountName")).isEqualTo("berth");

        Map<String, Object> berth = container(objects);
        assertThat((Object) at(berth, "securityContext", "privileged")).isEqualTo(true);
        assertThat((Object) at(berth, "livenessProbe", "httpGet", "path")).isEqualTo("/actuator/health/liveness");
        assertThat((Object) at(berth, "readinessProbe", "httpGet", "path")).isEqualTo("/actuator/health/readiness");
        assertThat((Object) at(berth, "startupProbe", "httpGet", "path")).isEqualTo("/actuator/health/liveness");
        assertThat((Object) at(berth, "ports", 0, "containerPort")).isEqualTo(4646);
        assertThat((Object) at(berth, "resources", "limits", "memory")).isEqualTo("768Mi");

        List<Map<String, Object>> volumes = at(pod, "volumes");
        assertThat(volumes).filteredOn(v -> v.containsKey("hostPath"))
                .extracting(v -> (Object) ((Map<?, ?>) v.get("hostPath")).get("path"))
                .containsExactlyInAnyOrder("/var/lib/berth", "/sys/fs/cgroup");
        List<Map<String, Object>> mounts = at(berth, "volumeMounts");
        assertThat(mounts).extracting(m -> m.get("mountPath"))
                .contains("/var/lib/berth", "/sys/fs/cgroup", "/opt/berth/config");

        Map<String, Object> secret = only(objects, "Secret");
        assertThat((Object) at(env(berth, "BERTH_ACL_TOKENS_0_SECRET"), "valueFrom", "secretKeyRef", "name"))
                .isEqualTo(at(secret, "metadata", "name"));
        assertThat((Object) at(env(berth, "BERTH_ACL_TOKENS_0_SECRET"), "valueFrom", "secretKeyRef", "key"))
                .isEqualTo("token");
        assertThat((String) at(secret, "data", "token")).isNotBlank();
        assertThat(new String(Base64.getDecoder().decode((String) at(secret, "data", "token")))).hasSize(48);
        assertThat((Object) at(env(berth, "BERTH_ACL_ENABLED"), "value")).isEqualTo("true");
        assertThat((Object) at(env(berth, "BERTH_ACL_TOKENS_0_SCOPE"), "value")).isEqualTo("write");
    }

    @Test
    void serviceMonitorOnlyWhenEnabled() {
        assertThat(render(t -> t)).noneMatch(o -> "ServiceMonitor".equals(o.get("kind")));

        List<Map<String, Object>> objects = render(t -> t.set("serviceMonitor.enabled", true));
        Map<String, Object> monitor = only(objects, "ServiceMonitor");
        assertThat((Object) at(monitor, "apiVersion")).isEqualTo("monitoring.coreos.com/v1");
        assertThat((Object) at(monitor, "spec", "endpoints", 0, "path")).isEqualTo("/actuator/prometheus");
        assertThat((Object) at(monitor, "spec", "endpoints", 0, "port"))
                .isEqualTo(at(only(objects, "Service"), "spec", "ports", 0, "name"));
        Map<String, Object> selector = at(monitor, "spec", "selector", "matchLabels");
        Map<String, Object> serviceLabels = at(only(objects, "Service"), "metadata", "labels");
        assertThat(serviceLabels).containsAllEntriesOf(selector);
        assertThat(((Map<?, ?>) at(monitor, "spec", "endpoints", 0)).containsKey("authorization")).isFalse();
    }

    @Test
    void serviceMonitorLabelsEverySeriesWithNodeDatacenterAndJobForTheShippedRules() {
        Map<String, Object> monitor = only(render(t -> t.set("serviceMonitor.enabled", true).set("config.datacenter", "eu-west")),
                "ServiceMonitor");
        List<Map<String, Object>> relabelings = at(monitor, "spec", "endpoints", 0, "relabelings");
        assertThat(relabelings).anySatisfy(r -> {
            assertThat(r.get("targetLabel")).isEqualTo("node");
            assertThat(r.get("sourceLabels")).isEqualTo(List.of("__meta_kubernetes_pod_node_name"));
        });
        assertThat(relabelings).anySatisfy(r -> assertThat(r).containsEntry("targetLabel", "datacenter").containsEntry("replacement", "eu-west"));
        assertThat(relabelings).anySatisfy(r -> assertThat(r).containsEntry("targetLabel", "job").containsEntry("replacement", "berth"));
    }

    @Test
    void prometheusRuleOnlyWhenEnabledAndCarriesTheShippedRulesVerbatim() throws IOException {
        assertThat(render(t -> t)).noneMatch(o -> "PrometheusRule".equals(o.get("kind")));

        Map<String, Object> rule = only(render(t -> t.set("prometheusRule.enabled", true).set("prometheusRule.labels.release", "kps")),
                "PrometheusRule");
        assertThat((Object) at(rule, "apiVersion")).isEqualTo("monitoring.coreos.com/v1");
        assertThat((Object) at(rule, "metadata", "labels", "release")).isEqualTo("kps");
        Map<String, Object> shipped = cast(new Yaml().load(Files.readString(CHART.resolve("files/prometheus/berth-rules.yml"))));
        assertThat((Object) at(rule, "spec")).isEqualTo(shipped);
        List<Map<String, Object>> groups = at(rule, "spec", "groups");
        List<Object> alerts = groups.stream().flatMap(g -> ((List<Map<String, Object>>) cast(g.get("rules"))).stream())
                .map(r -> r.get("alert")).filter(Objects::nonNull).toList();
        assertThat(alerts).contains("BerthAgentDown", "BerthTaskRestartsSpiking", "BerthTaskOOMKilled", "BerthTaskMemoryThrottled", "BerthDeviceUnhealthy",
                "BerthDiskPressure", "BerthStatsCollectionLagging");
        // Helm must not have treated the alerts' Go templates as its own
        assertThat(Files.readString(CHART.resolve("files/prometheus/berth-rules.yml"))).contains("{{ $labels.node }}");
        assertThat(groups.toString()).contains("{{ $labels.node }}");
    }

    @Test
    void dashboardConfigMapOnlyWhenEnabledWithTheSidecarLabelAndValidJson() throws IOException {
        assertThat(render(t -> t)).noneMatch(o -> "ConfigMap".equals(o.get("kind")) && "berth-dashboard".equals(((Map<?, ?>) o.get("metadata")).get("name")));

        List<Map<String, Object>> objects = render(t -> t.set("grafanaDashboard.enabled", true));
        Map<String, Object> configMap = objects.stream()
                .filter(o -> "ConfigMap".equals(o.get("kind")) && "berth-dashboard".equals(((Map<?, ?>) o.get("metadata")).get("name"))).findFirst()
                .orElseThrow(() -> new AssertionError("no berth-dashboard ConfigMap"));
        assertThat((Object) at(configMap, "metadata", "labels", "grafana_dashboard")).isEqualTo("1");
        String json = at(configMap, "data", "berth-fleet.json");
        assertThat(json).isEqualTo(Files.readString(CHART.resolve("files/grafana/berth-fleet.json")).stripTrailing());
        tools.jackson.databind.JsonNode dashboard = tools.jackson.databind.json.JsonMapper.builder().build().readTree(json);
        assertThat(dashboard.get("uid").asString()).isEqualTo("berth-fleet");
        assertThat(dashboard.get("panels").size()).isGreaterThan(10);
    }

    @Test
    void notesTellHowToReachTheWebUi() {
        // `helm template` does not render NOTES.txt; the lint test parses it, this checks what it tells
        Path notesFile = CHART.resolve("templates/NOTES.txt");
        assertThat(notesFile).content().contains("/ui/").contains("port-forward");
    }

    @Test
    void serviceMonitorPresentsTheReadTokenWhenMetricsAreNotAnonymous() {
        List<Map<String, Object>> objects = render(t -> t.set("serviceMonitor.enabled", true)
                .set("acl.anonymousMetrics", false).set("acl.readToken", "scraper-secret"));

        Map<String, Object> monitor = only(objects, "ServiceMonitor");
        assertThat((Object) at(monitor, "spec", "endpoints", 0, "authorization", "credentials", "name"))
                .isEqualTo("berth-acl-read");
        assertThat(objects).anySatisfy(o -> assertThat((Object) at(o, "metadata", "name")).isEqualTo("berth-acl-read"));
        assertThat((Object) at(env(container(objects), "BERTH_ACL_TOKENS_1_SCOPE"), "value")).isEqualTo("read");
    }

    @Test
    void explicitTokenIsAnOrdinaryManagedSecret() {
        Map<String, Object> secret = only(render(t -> t.set("acl.token", "chosen")), "Secret");

        assertThat((Object) at(secret, "data", "token")).isEqualTo("Y2hvc2Vu");
        assertThat(secret.get("metadata")).asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.MAP)
                .doesNotContainKey("annotations");
    }

    @Test
    void existingSecretIsReferencedAndNoSecretIsRendered() {
        List<Map<String, Object>> objects = render(t -> t.set("acl.existingSecret", "my-berth-token"));

        assertThat(objects).noneMatch(o -> "Secret".equals(o.get("kind")));
        assertThat((Object) at(env(container(objects), "BERTH_ACL_TOKENS_0_SECRET"), "valueFrom", "secretKeyRef", "name"))
                .isEqualTo("my-berth-token");
    }

    @Test
    void privilegedAndCgroupMountAreToggles() {
        List<Map<String, Object>> objects = render(t -> t.set("privileged", false).set("cgroup.mount", false));

        assertThat((Object) at(container(objects), "securityContext", "privileged")).isEqualTo(false);
        List<Map<String, Object>> volumes = at(only(objects, "DaemonSet"), "spec", "template", "spec", "volumes");
        assertThat(volumes).extracting(v -> v.get("name")).containsExactlyInAnyOrder("config", "data");
    }

    @Test
    void renderedApplicationYmlBindsToBerthPropertiesWithoutUnknownKeys() throws Exception {
        List<Map<String, Object>> objects = render(t -> t.set("config.metrics.naming", "nomad")
                .set("config.telemetry.collectionInterval", "5s")
                .set("extraConfig.logging.structured.format.console", "ecs"));
        String applicationYml = at(only(objects, "ConfigMap"), "data", "application.yml");

        List<PropertySource<?>> sources = new YamlPropertySourceLoader()
                .load("chart", new ByteArrayResource(applicationYml.getBytes()));
        Binder binder = new Binder(ConfigurationPropertySources.from(sources));
        BindHandler strict = new NoUnboundElementsBindHandler(BindHandler.DEFAULT);
        BerthProperties properties = binder.bind("berth", Bindable.of(BerthProperties.class), strict).get();

        assertThat(properties.metrics().naming()).isEqualTo(MetricsNaming.NOMAD);
        assertThat(properties.telemetry().collectionInterval()).hasSeconds(5);
        assertThat(properties.acl().enabled()).isTrue();
        assertThat(properties.dataDir()).isEqualTo(Path.of("/var/lib/berth"));
        assertThat(properties.drivers().exec().enabled()).isTrue();
        assertThat(binder.bind("server.address", String.class).get()).isEqualTo("0.0.0.0");
        assertThat(binder.bind("logging.structured.format.console", String.class).get()).isEqualTo("ecs");
    }

    @Test
    void schemaRejectsBadValues() {
        assertThatIllegalStateException().isThrownBy(() -> render(t -> t.set("config.metrics.naming", "statsd")))
                .withMessageContaining("values don't meet the specifications of the schema");
        assertThatIllegalStateException().isThrownBy(() -> render(t -> t.set("port", 70000)))
                .withMessageContaining("port");
        assertThatIllegalStateException().isThrownBy(() -> render(t -> t.set("acl.scope", "admin")))
                .withMessageContaining("scope");
        assertThatIllegalStateException().isThrownBy(() -> render(t -> t.set("config.telemetry.collectionInterval", "-1s")))
                .withMessageContaining("collectionInterval");
    }
}
