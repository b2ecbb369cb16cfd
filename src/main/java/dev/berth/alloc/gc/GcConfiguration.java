package dev.berth.alloc.gc;

import java.time.Clock;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.berth.alloc.AllocExceptions.UnknownAllocException;
import dev.berth.alloc.AllocManager;
import dev.berth.alloc.AllocManager.TerminalAlloc;
import dev.berth.config.BerthMetrics;
import dev.berth.config.BerthProperties;

/** Wires the garbage collector over the alloc service, the real disk usage of the alloc dir and its schedule. */
@Configuration(proxyBeanMethods = false)
class GcConfiguration {

    @Bean
    @ConditionalOnMissingBean(DiskUsage.class)
    DiskUsage allocDirDiskUsage(BerthProperties props) {
        return new StatvfsDiskUsage(props.allocDir().toAbsolutePath());
    }

    @Bean
    AllocGarbageCollector allocGarbageCollector(AllocManager allocs, DiskUsage disk, GcProperties gc, BerthMetrics metrics,
                                                Clock clock, BerthProperties props) {
        GcTarget target = new GcTarget() {
            @Override
            public List<TerminalAlloc> terminalAllocs() {
                return allocs.terminalAllocs();
            }

            @Override
            public int allocCount() {
                return allocs.allocCount();
            }

            @Override
            public boolean isTerminal(String allocId) throws UnknownAllocException {
                return allocs.isTerminal(allocId);
            }

            @Override
            public CompletableFuture<Void> destroy(String allocId) throws UnknownAllocException {
                return allocs.destroy(allocId);
            }
        };
        return new AllocGarbageCollector(target, disk, gc, new GcMetrics(metrics), clock,
                props.client().maxKillTimeout().plusSeconds(60));
    }

    @Bean
    GcScheduler gcScheduler(AllocGarbageCollector gc, GcProperties props) {
        return new GcScheduler(gc, props.interval());
    }
}
