package dev.berth.api;

import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import dev.berth.alloc.AllocExceptions.UnknownAllocException;
import dev.berth.alloc.gc.AllocGarbageCollector;
import dev.berth.alloc.gc.NotEligibleForGcException;

/**
 * Forced garbage collection: {@code /v1/client/allocation/:id/gc} destroys one terminal alloc, {@code /v1/client/gc}
 * every terminal alloc. Both answer once the destroys finished; the body is empty. Nomad accepts any method; Berth takes
 * any method too (the SDK sends GET); the ACL filter asks write scope for these paths whatever the method, because a GC
 * destroys data.
 */
@RestController
class GcController {

    private final AllocGarbageCollector gc;

    GcController(AllocGarbageCollector gc) {
        this.gc = gc;
    }

    @RequestMapping(path = "/v1/client/allocation/{id}/gc")
    void collect(@PathVariable String id) throws InterruptedException, UnknownAllocException, NotEligibleForGcException {
        gc.collect(id);
    }

    @RequestMapping(path = "/v1/client/gc")
    void collectAll() throws InterruptedException {
        gc.collectAll();
    }
}
