/**
 * Nomad's {@code artifact} task hook: before a task starts, each of its {@code artifact} blocks is fetched over
 * {@code http}/{@code https} (or copied from a {@code file://} path the agent allows), checked against its
 * {@code checksum}, unpacked when it is an archive (tar, tar.gz/tgz, tar.bz2/tbz2, gz, bz2, zip) and placed in the task
 * directory; a failure is a {@code Failed Artifact Download} event and goes through the restart policy.
 */
package dev.berth.artifact;
