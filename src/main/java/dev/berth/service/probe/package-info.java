/**
 * The probes a service check runs: {@code http} (JDK client), {@code tcp}, {@code grpc} ({@code grpc.health.v1}) and
 * {@code script} (a process in the task's environment and cgroup). Each probe is blocking and meant for a virtual
 * thread; it knows nothing of allocations or schedules.
 */
package dev.berth.service.probe;
