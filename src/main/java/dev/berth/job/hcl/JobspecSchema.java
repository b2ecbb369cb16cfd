package dev.berth.job.hcl;

import static dev.berth.job.hcl.BlockSpec.ArgType.ANY;
import static dev.berth.job.hcl.BlockSpec.ArgType.BOOL;
import static dev.berth.job.hcl.BlockSpec.ArgType.DURATION;
import static dev.berth.job.hcl.BlockSpec.ArgType.MAP;
import static dev.berth.job.hcl.BlockSpec.ArgType.NUMBER;
import static dev.berth.job.hcl.BlockSpec.ArgType.STRING;
import static dev.berth.job.hcl.BlockSpec.ArgType.STRINGS;
import static dev.berth.job.hcl.BlockSpec.block;
import static dev.berth.job.hcl.BlockSpec.map;

/**
 * Nomad's jobspec schema (Nomad's {@code jobspec2} decoding of {@code api.Job} and the structs it holds), block by block,
 * with what Berth runs. Everything Nomad accepts is either run (mapped by {@link JobspecMapping}) or refused here with
 * a reason; nothing is dropped. docs/jobs.md lists the same table for users.
 */
final class JobspecSchema {

    static final String NOT_YET = "Berth does not run it yet";
    private static final String ONE_NODE = "Berth places on one node and has no use for it";
    private static final String NO_VAULT = "Berth has no Vault or Consul integration";

    private JobspecSchema() {
    }

    private static BlockSpec constraint() {
        return block("constraint").args(STRING, "attribute", "value", "operator", "distinct_property", "regexp", "version", "semver",
                "set_contains", "set_contains_all", "set_contains_any").args(BOOL, "distinct_hosts");
    }

    private static BlockSpec restart() {
        return block("restart").args(NUMBER, "attempts").args(DURATION, "interval", "delay").args(STRING, "mode")
                // Berth's exit rules (docs/allocations.md); their values are checked where the JSON policy is
                .args(ANY, "no_restart_exit_codes", "restart_exit_codes").args(STRINGS, "no_restart_signals", "restart_signals")
                .refuse("Berth renders a task's templates again before every restart", "render_templates");
    }

    private static BlockSpec reschedule() {
        return block("reschedule").args(NUMBER, "attempts").args(DURATION, "interval", "delay", "max_delay").args(STRING, "delay_function")
                .args(BOOL, "unlimited");
    }

    /** The {@code update} block as Nomad has it, kept whole: deployments read it. */
    private static BlockSpec update() {
        return block("update").args(DURATION, "stagger", "min_healthy_time", "healthy_deadline", "progress_deadline")
                .args(NUMBER, "max_parallel", "canary").args(STRING, "health_check").args(BOOL, "auto_revert", "auto_promote");
    }

    /** The {@code migrate} block: how a drain stops the group's allocations (Nomad's {@code MigrateStrategy}). */
    private static BlockSpec migrate() {
        return block("migrate").args(NUMBER, "max_parallel").args(STRING, "health_check").args(DURATION, "min_healthy_time", "healthy_deadline");
    }

    private static BlockSpec service() {
        BlockSpec checkRestart = block("check_restart").args(NUMBER, "limit").args(DURATION, "grace").args(BOOL, "ignore_warnings");
        BlockSpec check = block("check").args(STRING, "name", "type", "command", "path", "protocol", "port", "address_mode", "initial_status",
                "grpc_service", "task", "body", "method", "on_update").args(STRINGS, "args").args(DURATION, "interval", "timeout")
                .args(BOOL, "tls_skip_verify", "grpc_use_tls").args(NUMBER, "success_before_passing", "failures_before_critical")
                .with(map("header"), checkRestart)
                .refuse(NOT_YET, "expose", "advertise", "notes", "tls_server_name", "failures_before_warning");
        return block("service").args(STRING, "name", "port", "address_mode", "address", "task", "on_update", "provider").args(STRINGS, "tags")
                .with(check)
                .refuse(NOT_YET, "canary_tags", "enable_tag_override", "meta", "canary_meta", "tagged_addresses", "identity", "weights", "kind",
                        "check_restart")
                .refuse(NO_VAULT, "connect", "cluster");
    }

    private static BlockSpec task() {
        BlockSpec resources = block("resources").args(NUMBER, "cpu", "cores", "memory", "memory_max")
                .refuse(NOT_YET, "disk", "iops", "numa", "secrets", "network", "device");
        BlockSpec lifecycle = block("lifecycle").args(STRING, "hook").args(BOOL, "sidecar").require("hook");
        BlockSpec logs = block("logs").args(NUMBER, "max_files", "max_file_size").args(BOOL, "disabled")
                .refuse("write disabled = true instead", "enabled");
        BlockSpec action = block("action", "name").args(STRING, "command").args(STRINGS, "args").require("command");
        BlockSpec artifact = block("artifact").args(STRING, "source", "destination", "mode").args(BOOL, "insecure", "chown")
                .args(MAP, "options", "headers").with(map("options"), map("headers")).require("source");
        BlockSpec template = block("template").args(STRING, "source", "destination", "data", "change_mode", "change_signal", "perms",
                "left_delimiter", "right_delimiter").args(DURATION, "splay").args(NUMBER, "uid", "gid")
                .args(BOOL, "env", "error_on_missing_key")
                .with(block("wait").args(DURATION, "min", "max"),
                        block("change_script").args(STRING, "command").args(STRINGS, "args").args(DURATION, "timeout")
                                .args(BOOL, "fail_on_error").require("command"))
                .refuse(NOT_YET, "once")
                .refuse(NO_VAULT, "vault_grace");
        BlockSpec volumeMount = block("volume_mount").args(STRING, "volume", "destination", "propagation_mode").args(BOOL, "read_only")
                .refuse(NOT_YET, "selinux_label");
        return block("task", "name").args(STRING, "driver", "user", "kill_signal").args(DURATION, "kill_timeout", "shutdown_delay")
                .args(BOOL, "leader").args(MAP, "env", "meta")
                .with(BlockSpec.driverConfig(), map("env"), map("meta"), constraint(), resources, restart(), lifecycle, logs,
                        block("dispatch_payload").args(STRING, "file"), service(), action, artifact, template, volumeMount)
                .refuse(NOT_YET, "csi_plugin", "scaling", "identity", "schedule", "kind")
                .refuse(NO_VAULT, "vault", "consul", "secret")
                .refuse(ONE_NODE, "affinity");
    }

    private static BlockSpec group() {
        BlockSpec port = block("port", "label").args(NUMBER, "static", "to").args(STRING, "host_network").refuse(NOT_YET, "ignore_collision");
        BlockSpec network = block("network").args(STRING, "mode").with(port)
                .refuse(NOT_YET, "hostname", "dns", "cni", "device", "cidr", "ip", "mbits", "reserved_ports");
        BlockSpec disk = block("ephemeral_disk").args(BOOL, "sticky", "migrate").args(NUMBER, "size");
        BlockSpec volume = block("volume", "name").args(STRING, "type", "source").args(BOOL, "read_only")
                .refuse(NOT_YET, "access_mode", "attachment_mode", "per_alloc", "mount_options", "sticky");
        return block("group", "name").args(NUMBER, "count").args(MAP, "meta")
                .with(constraint(), task(), restart(), reschedule(), disk, update(), migrate(), network, map("meta"), service(), volume)
                .refuse(NOT_YET, "disconnect", "max_client_disconnect", "stop_after_client_disconnect", "prevent_reschedule_on_lost",
                        "shutdown_delay", "max_run_duration", "scaling")
                .refuse(NO_VAULT, "consul", "vault", "secret")
                .refuse(ONE_NODE, "affinity", "spread");
    }

    /** The {@code job} block; a {@code task} written in it directly runs in a group of its own name, as in Nomad. */
    static BlockSpec job() {
        BlockSpec periodic = block("periodic").args(BOOL, "enabled", "prohibit_overlap").args(STRING, "cron", "time_zone").args(STRINGS, "crons");
        BlockSpec parameterized = block("parameterized").args(STRING, "payload").args(STRINGS, "meta_required", "meta_optional");
        return block("job", "name").args(STRING, "region", "namespace", "name", "type", "node_pool").args(NUMBER, "priority")
                .args(STRINGS, "datacenters").args(MAP, "meta")
                .with(constraint(), group(), task(), update(), migrate(), periodic, parameterized, reschedule(), map("meta"))
                .refuse(NOT_YET, "id", "all_at_once", "ui")
                .refuse(NO_VAULT, "vault", "secret")
                .refuse(ONE_NODE, "affinity", "spread", "multiregion");
    }

    /** A file: one {@code job}, {@code variable} declarations, {@code variables} and {@code locals}. */
    static BlockSpec file() {
        BlockSpec validation = block("validation").args(ANY, "condition").args(STRING, "error_message").require("condition", "error_message");
        BlockSpec variable = block("variable", "name").args(ANY, "default", "type").args(STRING, "description").args(BOOL, "sensitive")
                .with(validation);
        return block("").with(job(), variable, map("variables"), map("locals"));
    }
}
