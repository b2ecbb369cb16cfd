package dev.berth.alloc.runner;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.berth.alloc.spec.AllocationSpec;
import dev.berth.host.cgroup.HostCgroups;
import dev.berth.host.cgroup.TaskCgroup;

import static dev.berth.alloc.runner.ResizeKernelTest.alloc;
import static dev.berth.alloc.runner.ResizeKernelTest.next;

/** The benchmark of in-place resize ({@code docs/benchmarks/allocations.md}), on the set-up of {@link ResizeKernelTest}. */
class ResizeCostBench extends ResizeKernelTest {

    private static final long MB = 1024 * 1024;

    /**
     * The cost of a resize: from the alloc update to the new memory limit in the task's cgroup, 200 times alternating
     * between two sizes; prints the percentiles. Not a test (its name keeps it out of the suite): run it with
     * {@code -Dtest=ResizeCostBench}.
     */
    @Test
    void costOfAResize() throws Exception {
        AllocationSpec spec = alloc("exec", List.of("-c", "exec sleep 600"), 100, 64, null);
        AllocRunner r = running(exec, spec);
        TaskCgroup cgroup = cgroupOf(spec);
        List<Long> nanos = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            int memory = i % 2 == 0 ? 96 : 64;
            spec = next(spec, 100, memory, null);
            long start = System.nanoTime();
            r.update(spec);
            while (HostCgroups.memoryLimit(cgroup) != memory * MB) {
                Thread.onSpinWait();
            }
            nanos.add(System.nanoTime() - start);
        }
        List<Long> sorted = nanos.stream().sorted().toList();
        System.out.printf("resize (update → cgroup written), %d runs, cgroup %s: p50 %.2f ms, p90 %.2f ms, p99 %.2f ms, max %.2f ms%n",
                sorted.size(), cgroup.version(), sorted.get(100) / 1e6, sorted.get(180) / 1e6, sorted.get(198) / 1e6,
                sorted.getLast() / 1e6);
    }

}
