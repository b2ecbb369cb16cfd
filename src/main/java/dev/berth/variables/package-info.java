/**
 * Nomad's Variables on one node ({@code /v1/vars}, {@code /v1/var/:path}): encrypted key/value documents addressed by
 * namespace and path, with check-and-set writes and leased locks. {@link dev.berth.variables.VariableService} reads,
 * lists and writes them; {@link dev.berth.variables.VariableLocks} acquires, renews and releases their locks and lets
 * lapsed ones go; {@link dev.berth.variables.VariableCipher} seals each variable's items under the node key
 * ({@link dev.berth.variables.NodeKeyFile}, outside the database) before the {@link dev.berth.variables.VariableStore}
 * port (implemented in {@code state}) sees them. {@link dev.berth.variables.WorkloadVariables} is what a task's
 * template reads: only the paths Nomad's workload identity may read ({@link dev.berth.variables.WorkloadVariablePolicy}).
 */
package dev.berth.variables;
