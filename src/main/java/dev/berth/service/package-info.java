/**
 * Node-local services and their checks (Nomad's native service discovery, {@code Provider: "nomad"}): the
 * {@link dev.berth.service.ServiceRegistry} ({@code /v1/services}), the {@link dev.berth.service.CheckScheduler} that
 * probes every armed check from one timer thread with virtual-thread probes, {@code check_restart}, and the task/alloc
 * hooks that arm checks with their task and disarm them with it.
 */
package dev.berth.service;
