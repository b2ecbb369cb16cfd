/**
 * {@code alloc exec} for drivers whose tasks are host processes (raw_exec, exec): a command started with the task's
 * environment and working directory, inside the task's cgroup, on pipes or on a pseudo-terminal.
 */
package dev.berth.driver.hostexec;
