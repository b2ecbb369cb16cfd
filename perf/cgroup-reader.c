/*
 * The physical limit of per-task stats: reads the same cgroup files as the agent's task-stats collector, for the
 * same tasks, once per interval, and reports its own CPU time. perf/footprint.sh runs it beside the agent.
 *
 *   cc -O2 -o cgroup-reader perf/cgroup-reader.c
 *   cgroup-reader [-o] SECONDS INTERVAL_MS < files      (files: one path per line, every file of every task)
 *
 * Default: every file is opened once and re-read with pread() from offset 0 (a short read ends a seq file), as the
 * agent does. -o opens, reads and closes each file on every sample instead (the agent's former way).
 * Prints: files, samples, CPU seconds (user, system) and CPU as a percentage of one core.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

static double seconds(struct timeval tv) { return tv.tv_sec + tv.tv_usec / 1e6; }

int main(int argc, char **argv) {
    int reopen = 0;
    int arg = 1;
    if (argc > 1 && strcmp(argv[1], "-o") == 0) { reopen = 1; arg++; }
    if (argc - arg != 2) { fprintf(stderr, "usage: %s [-o] SECONDS INTERVAL_MS < files\n", argv[0]); return 2; }
    double duration = atof(argv[arg]);
    long interval_ms = atol(argv[arg + 1]);

    size_t cap = 1024, n = 0;
    char **paths = malloc(cap * sizeof *paths);
    char line[4096];
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\n")] = 0;
        if (!*line) continue;
        if (n == cap) { cap *= 2; paths = realloc(paths, cap * sizeof *paths); }
        paths[n++] = strdup(line);
    }
    int *fds = malloc(n * sizeof *fds);
    for (size_t i = 0; i < n; i++) fds[i] = reopen ? -1 : open(paths[i], O_RDONLY | O_CLOEXEC);

    struct rusage r0, r1;
    struct timespec next, start, now;
    getrusage(RUSAGE_SELF, &r0);
    clock_gettime(CLOCK_MONOTONIC, &start);
    next = start;
    char buf[8192];
    long samples = 0, bytes = 0, failed = 0;
    for (;;) {
        for (size_t i = 0; i < n; i++) {
            int fd = reopen ? open(paths[i], O_RDONLY | O_CLOEXEC) : fds[i];
            if (fd < 0) { failed++; continue; }
            ssize_t got, total = 0;
            while ((got = pread(fd, buf + total, sizeof buf - total, total)) > 0) {
                total += got;
                if ((size_t) got < sizeof buf - (size_t) (total - got)) break; /* short read: end of a seq file */
                if ((size_t) total == sizeof buf) total = 0;                    /* (never for these small files) */
            }
            bytes += total;
            if (reopen) close(fd);
        }
        samples++;
        next.tv_nsec += (interval_ms % 1000) * 1000000L;
        next.tv_sec += interval_ms / 1000 + next.tv_nsec / 1000000000L;
        next.tv_nsec %= 1000000000L;
        clock_gettime(CLOCK_MONOTONIC, &now);
        double elapsed = (next.tv_sec - start.tv_sec) + (next.tv_nsec - start.tv_nsec) / 1e9;
        if (elapsed > duration) break;
        clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
    }
    clock_gettime(CLOCK_MONOTONIC, &now);
    getrusage(RUSAGE_SELF, &r1);
    double wall = (now.tv_sec - start.tv_sec) + (now.tv_nsec - start.tv_nsec) / 1e9;
    double user = seconds(r1.ru_utime) - seconds(r0.ru_utime);
    double sys = seconds(r1.ru_stime) - seconds(r0.ru_stime);
    printf("files=%zu samples=%ld failed=%ld bytes_per_sample=%ld user_s=%.3f sys_s=%.3f wall_s=%.1f cpu_pct=%.2f\n",
           n, samples, failed, samples ? bytes / samples : 0, user, sys, wall, 100.0 * (user + sys) / wall);
    return 0;
}
