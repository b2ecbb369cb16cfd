package dev.berth.alloc.spec;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import dev.berth.driver.GoDuration;

/**
 * Validation of a task group's services and checks at submission (Nomad's {@code Service.Validate} and
 * {@code ServiceCheck.validateCommon}, with Nomad's texts). Only {@code Provider: "nomad"} services are checked in depth:
 * those are the ones this agent runs. Berth accepts {@code grpc} and {@code script} checks and Consul's
 * {@code SuccessBeforePassing}/{@code FailuresBeforeCritical} for them too.
 */
public final class ServiceSpecs {

    /** The check types this agent runs. */
    public static final List<String> CHECK_TYPES = List.of("tcp", "http", "grpc", "script");
    private static final long MIN_INTERVAL_NS = 1_000_000_000L;
    private static final List<String> INITIAL = List.of("", "passing", "warning", "critical");
    private static final List<String> ON_UPDATE = List.of("", "require_healthy", "ignore_warnings", "ignore");
    private static final List<String> METHODS = List.of("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "CONNECT", "OPTIONS", "TRACE");

    private ServiceSpecs() {
    }

    /** The first problem of the group's and its tasks' services, naming the field. */
    public static void validate(TaskGroupSpec group) throws SpecValidationException {
        String g = "Job.TaskGroups[" + group.name() + "]";
        Set<String> labels = portLabels(group);
        Set<String> taskNames = new HashSet<>();
        group.tasks().forEach(t -> taskNames.add(t.name()));
        for (ServiceSpec s : group.servicesOrEmpty()) {
            validate(s, g + ".Services", true, labels, taskNames);
        }
        for (TaskSpec t : group.tasks()) {
            for (ServiceSpec s : t.servicesOrEmpty()) {
                validate(s, g + ".Tasks[" + t.name() + "].Services", false, labels, taskNames);
            }
        }
    }

    private static void validate(ServiceSpec s, String list, boolean groupLevel, Set<String> labels, Set<String> taskNames)
            throws SpecValidationException {
        if (s == null) {
            throw new SpecValidationException(list, "Missing service");
        }
        String f = list + "[" + s.name() + "]";
        String provider = s.provider() == null ? "" : s.provider();
        if (!provider.isEmpty() && !ServiceSpec.PROVIDER_NOMAD.equals(provider) && !ServiceSpec.PROVIDER_CONSUL.equals(provider)) {
            throw new SpecValidationException(f + ".Provider", "Service provider must be \"consul\", or \"nomad\"; not \"" + provider + "\"");
        }
        if (!s.isNomad()) {
            return;
        }
        if (s.name() == null || s.name().isEmpty()) {
            throw new SpecValidationException(f + ".Name", "Missing service name");
        }
        if (!s.name().contains("${") && !s.name().matches("[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?")) {
            throw new SpecValidationException(f + ".Name", "Service name must be valid per RFC 1123 and can contain only alphanumeric "
                    + "characters or dashes and must be no longer than 63 characters: \"" + s.name() + "\"");
        }
        String mode = s.addressMode() == null ? "" : s.addressMode();
        if (!List.of("", "auto", "host", "alloc", "driver").contains(mode)) {
            throw new SpecValidationException(f + ".AddressMode", "Service address_mode must be \"auto\", \"host\", or \"driver\"; not \"" + mode + "\"");
        }
        if (s.address() != null && !s.address().isEmpty() && !mode.isEmpty() && !"auto".equals(mode)) {
            throw new SpecValidationException(f + ".AddressMode", "Service address_mode must be \"auto\" if address is set");
        }
        if (s.onUpdate() != null && !ON_UPDATE.contains(s.onUpdate())) {
            throw new SpecValidationException(f + ".OnUpdate", "Service on_update must be \"require_healthy\", \"ignore_warnings\", or "
                    + "\"ignore\"; not \"" + s.onUpdate() + "\"");
        }
        if (groupLevel && s.taskName() != null && !s.taskName().isEmpty() && !taskNames.contains(s.taskName())) {
            throw new SpecValidationException(f + ".TaskName", "Service " + s.name() + " references unknown task \"" + s.taskName() + "\"");
        }
        checkLabel(s.portLabel(), labels, f + ".PortLabel", s.name());
        Set<String> checkNames = new HashSet<>();
        for (ServiceCheckSpec c : s.checksOrEmpty()) {
            if (c == null) {
                throw new SpecValidationException(f + ".Checks", "Missing check");
            }
            String cf = f + ".Checks[" + (c.name() == null ? "" : c.name()) + "]";
            if (c.name() != null && !c.name().isEmpty() && !checkNames.add(c.name())) {
                throw new SpecValidationException(cf + ".Name", "Check " + c.name() + " is duplicated in service " + s.name());
            }
            validateCheck(c, cf, s, groupLevel, labels, taskNames);
        }
    }

    private static void validateCheck(ServiceCheckSpec c, String f, ServiceSpec s, boolean groupLevel, Set<String> labels,
                                      Set<String> taskNames) throws SpecValidationException {
        String type = c.type() == null ? "" : c.type().toLowerCase();
        if (!CHECK_TYPES.contains(type)) {
            throw new SpecValidationException(f + ".Type", "invalid check type (\"" + type + "\"), must be one of "
                    + String.join(", ", CHECK_TYPES));
        }
        switch (type) {
            case "http" -> {
                if (c.path() == null || c.path().isEmpty()) {
                    throw new SpecValidationException(f + ".Path", "http type must have http path");
                }
                try {
                    if (c.path().contains("${") ? false : new URI(c.path()).isAbsolute()) {
                        throw new SpecValidationException(f + ".Path", "http type must have relative http path");
                    }
                } catch (URISyntaxException e) {
                    throw new SpecValidationException(f + ".Path", "http type must have valid http path");
                }
                if (c.method() != null && !c.method().isEmpty() && !METHODS.contains(c.method())) {
                    throw new SpecValidationException(f + ".Method", "method type \"" + c.method() + "\" not supported in Nomad http check");
                }
                if (c.protocol() != null && !List.of("", "http", "https").contains(c.protocol())) {
                    throw new SpecValidationException(f + ".Protocol", "http check protocol must be \"http\" or \"https\"; not \""
                            + c.protocol() + "\"");
                }
            }
            case "script" -> {
                if (c.command() == null || c.command().isEmpty()) {
                    throw new SpecValidationException(f + ".Command", "script type must have a valid script path");
                }
                String task = c.taskName() != null && !c.taskName().isEmpty() ? c.taskName() : null;
                if (groupLevel && task == null && (s.taskName() == null || s.taskName().isEmpty())) {
                    throw new SpecValidationException(f + ".TaskName", "Check " + c.name() + " invalid: script checks of a group "
                            + "service must name the task to run in");
                }
                if (task != null && !taskNames.contains(task)) {
                    throw new SpecValidationException(f + ".TaskName", "Check " + c.name() + " invalid: unknown task \"" + task + "\"");
                }
            }
            default -> {
                String label = c.portLabel() != null && !c.portLabel().isEmpty() ? c.portLabel() : s.portLabel();
                if (label == null || label.isEmpty()) {
                    throw new SpecValidationException(f + ".PortLabel", "Check " + c.name() + " invalid: check requires a port but "
                            + "neither check nor service \"" + s.name() + "\" have a port");
                }
                checkLabel(c.portLabel(), labels, f + ".PortLabel", s.name());
            }
        }
        if (c.interval() == null || c.interval() == 0) {
            throw new SpecValidationException(f + ".Interval", "missing required value interval. Interval cannot be less than 1s");
        }
        if (c.interval() < MIN_INTERVAL_NS) {
            throw new SpecValidationException(f + ".Interval", "interval (" + GoDuration.format(Duration.ofNanos(c.interval()))
                    + ") cannot be lower than 1s");
        }
        if (c.timeout() == null || c.timeout() == 0) {
            throw new SpecValidationException(f + ".Timeout", "missing required value timeout. Timeout cannot be less than 1s");
        }
        if (c.timeout() < MIN_INTERVAL_NS) {
            throw new SpecValidationException(f + ".Timeout", "timeout (" + GoDuration.format(Duration.ofNanos(c.timeout()))
                    + ") is lower than required minimum timeout 1s");
        }
        String initial = c.initialStatus() == null ? "" : c.initialStatus();
        if (!INITIAL.contains(initial)) {
            throw new SpecValidationException(f + ".InitialStatus", "invalid initial check state (" + initial
                    + "), must be one of \"passing\", \"warning\", \"critical\" or empty");
        }
        String mode = c.addressMode() == null ? "" : c.addressMode();
        if ("auto".equals(mode)) {
            throw new SpecValidationException(f + ".AddressMode", "invalid address_mode \"auto\" - auto only valid for services");
        }
        if (!List.of("", "host", "alloc", "driver").contains(mode)) {
            throw new SpecValidationException(f + ".AddressMode", "invalid address_mode \"" + mode + "\"");
        }
        String onUpdate = c.onUpdate() == null ? "" : c.onUpdate();
        if (!ON_UPDATE.contains(onUpdate)) {
            throw new SpecValidationException(f + ".OnUpdate", "on_update must be \"require_healthy\", \"ignore_warnings\", or \"ignore\"; got \""
                    + onUpdate + "\"");
        }
        if (c.successBeforePassingOrZero() < 0) {
            throw new SpecValidationException(f + ".SuccessBeforePassing", "success_before_passing must be non-negative");
        }
        if (c.failuresBeforeCriticalOrZero() < 0) {
            throw new SpecValidationException(f + ".FailuresBeforeCritical", "failures_before_critical must be non-negative");
        }
        ServiceCheckSpec.CheckRestartSpec r = c.checkRestart();
        if (r != null) {
            if ("ignore".equals(onUpdate)) {
                throw new SpecValidationException(f + ".OnUpdate", "on_update value \"ignore\" is not compatible with check_restart");
            }
            if (!Boolean.TRUE.equals(r.ignoreWarnings()) && "ignore_warnings".equals(onUpdate)) {
                throw new SpecValidationException(f + ".OnUpdate", "on_update value \"ignore_warnings\" not supported with check_restart "
                        + "ignore_warnings value \"false\"");
            }
            if (r.limit() != null && r.limit() < 0) {
                throw new SpecValidationException(f + ".CheckRestart.Limit", "limit must be greater than or equal to 0 but found " + r.limit());
            }
            if (r.grace() != null && r.grace() < 0) {
                throw new SpecValidationException(f + ".CheckRestart.Grace", "grace period must be greater than or equal to 0 but found "
                        + GoDuration.format(Duration.ofNanos(r.grace())));
            }
        }
    }

    private static void checkLabel(String label, Set<String> labels, String field, String service) throws SpecValidationException {
        if (label == null || label.isEmpty() || label.contains("${") || label.matches("\\d+")) {
            return;
        }
        if (!labels.contains(label)) {
            throw new SpecValidationException(field, "port label \"" + label + "\" referenced by services [" + service + "] does not exist");
        }
    }

    private static Set<String> portLabels(TaskGroupSpec group) {
        Set<String> labels = new HashSet<>();
        List<NetworkSpec> nets = new ArrayList<>();
        if (group.networks() != null) {
            nets.addAll(group.networks());
        }
        for (TaskSpec t : group.tasks()) {
            if (t.resources() != null && t.resources().networks() != null) {
                nets.addAll(t.resources().networks());
            }
        }
        for (NetworkSpec n : nets) {
            for (List<NetworkSpec.PortSpec> ports : java.util.Arrays.asList(n.reservedPorts(), n.dynamicPorts())) {
                if (ports != null) {
                    ports.forEach(p -> labels.add(p.label()));
                }
            }
        }
        return labels;
    }
}
