package dev.berth.host.cgroup;

/** Which cgroup layout the host offers for per-task cgroups. */
public enum CgroupVersion {
    /** Legacy per-controller hierarchies (memory, cpu, cpuacct, pids), also in hybrid mode. */
    V1,
    /** The unified hierarchy with the memory, cpu and pids controllers available. */
    V2,
    /** No usable cgroup mount: tasks are observed through their /proc process tree. */
    NONE
}
